# cython: language_level=3
"""Ctrl-C inside native work: see _signals.pxd."""

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from "Python.h":
    int PyErr_CheckSignals()
    void PyErr_Clear()

cdef extern from *:
    """
    #ifdef _OPENMP
    #include <omp.h>
    static int cu_thread_num(void) { return omp_get_thread_num(); }
    #else
    static int cu_thread_num(void) { return 0; }
    #endif
    """
    int cu_thread_num() noexcept nogil

cdef volatile int _interrupted = 0
cdef double _last_poll = 0.0
cdef double POLL_EVERY = 0.005     # seconds between looks at Python's pending signals


cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec


cdef int poll_interrupt() noexcept nogil:
    global _last_poll, _interrupted
    cdef double now
    cdef int raised = 0
    if _interrupted:
        return 1
    if cu_thread_num() != 0:
        return 0
    now = _now()
    if now - _last_poll < POLL_EVERY:
        return 0
    _last_poll = now
    with gil:
        if PyErr_CheckSignals() != 0:
            PyErr_Clear()
            raised = 1
    if raised:
        _interrupted = 1
    return _interrupted


cdef int interrupted() noexcept nogil:
    return _interrupted


cdef void reset_interrupt() noexcept nogil:
    global _interrupted
    _interrupted = 0


def raise_if_interrupted():
    """Raise KeyboardInterrupt if native work stopped on Ctrl-C (and forget it)."""
    global _interrupted
    if _interrupted:
        _interrupted = 0
        raise KeyboardInterrupt
