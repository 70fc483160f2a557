# cython: language_level=3
# Ctrl-C inside native work, per batch.  A native call (a batch: play_units, rollouts, a
# VectorEnv step, a decision) owns a Stop.  stop_start binds it with the GIL; each work
# item runs between stop_enter (which binds the item's thread to the batch and says
# whether to stop) and stop_leave; stop_finish, with the GIL again, raises what the
# signal handler raised.  Deep loops (the search) call poll_interrupt(), which finds
# their batch through the thread.
#
# Python runs signal handlers in its main thread only, so only a batch called from the
# main thread can be interrupted, and only its calling thread polls (taking the GIL at
# most every few milliseconds: PyErr_CheckSignals).  A batch of another thread never
# takes the GIL before it ends: at interpreter exit, a daemon thread that asks for the
# GIL is ended on the spot, which inside an OpenMP region aborts the process.  Batches
# in several threads never see each other's interrupts.
#
# The polling thread may be waiting at the batch's end for the others (a long search
# game on another core), so while Python's SIGINT handler is its default, a C handler
# in front of it raises a flag that every thread of a main-thread batch sees at once
# (Stop.fast); the batch stops, and stop_finish runs Python's handler for its
# KeyboardInterrupt.  SIGTERM takes the same path while its Python handler stands for
# Ctrl-C: a handler with a `stops_native_work()` attribute that answers True when the
# batch starts (cuttle.interrupts.sigterm_as_ctrl_c's, which raises KeyboardInterrupt
# for it, also where SIGINT is ignored).  With any other Python handler, only the
# polling thread looks.
#
# A batch may also be bound to a cancel token (Cancel, stop_bind): another Python
# thread cancels it, and every poll of the batch sees it at once (one pointer test
# where there is none), from any thread; the work stops as at a Ctrl-C, answering with
# what it has, but nothing is raised.  The searches add the iterations they ran to it.

ctypedef struct Token:
    volatile int cancelled     # set by Cancel.cancel(), from any thread
    long long done             # the iterations the bound searches ran (added atomically)

cdef class Cancel:
    cdef Token token

cdef struct Stop:
    volatile int stopped       # a signal handler raised: the batch stops
    int polls                  # the calling thread is Python's main thread
    int fast                   # ... and every thread sees a Ctrl-C (bit 1: SIGINT's
                               # flag, cu_signalled[0]; bit 2: SIGTERM's, [1])
    unsigned long poller       # its pthread id
    double last_poll
    Token* token               # a cancel token bound to the batch, or NULL
    void* exc[3]               # the handler's exception (type, value, traceback), owned

# Start a batch in the calling thread (GIL held).
cdef void stop_start(Stop* st) noexcept

# Bind the batch to `cancel`'s token (None: none), after stop_start.
cdef void stop_bind(Stop* st, Cancel cancel) noexcept

# Bind this thread to the batch for a work item; 1 if the batch stops (skip the item).
cdef int stop_enter(Stop* st) noexcept nogil

# The item is done: unbind this thread.
cdef void stop_leave() noexcept nogil

# 1 if the current thread's batch stops: a Ctrl-C (polling Python's signals now and
# then if this is the batch's polling thread) or its token cancelled; 0 outside any batch.
cdef int poll_interrupt() noexcept nogil

# 1 if the current thread's batch has stopped, without polling: a poll has seen the
# signal (or its token is cancelled), so a search since may have been cut short
# (_policies.play_seats' record).
cdef int stop_seen() noexcept nogil

# A search ran `n` iterations: added to the current thread's batch's token, if any.
cdef void work_done(long long n) noexcept nogil

# End the batch (GIL held): raise the signal handler's exception if it stopped the batch.
cdef int stop_finish(Stop* st) except -1
