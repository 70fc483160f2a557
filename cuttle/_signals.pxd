# cython: language_level=3
# Ctrl-C inside native work.  Long nogil loops call poll_interrupt() now and then (it
# is cheap: only the calling thread of a parallel region -- the Python thread -- looks
# at Python's pending signals, at most every few milliseconds) and stop early once it
# returns 1; their Python wrapper then calls raise_if_interrupted().  One flag for the
# whole process, because a signal is.

# 1 once a Python signal handler raised (the exception is cleared and remembered as
# "interrupted"); safe from any thread, holding no lock.
cdef int poll_interrupt() noexcept nogil

# Whether an interrupt was seen since the last reset (no polling).
cdef int interrupted() noexcept nogil

# Forget a previous interrupt (call before starting native work).
cdef void reset_interrupt() noexcept nogil
