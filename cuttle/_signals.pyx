# cython: language_level=3
"""Ctrl-C inside native work, per batch: see _signals.pxd."""

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.ref cimport PyObject

import threading

cdef extern from "Python.h":
    int PyErr_CheckSignals()
    void PyErr_Fetch(PyObject**, PyObject**, PyObject**)
    void PyErr_Restore(PyObject*, PyObject*, PyObject*)
    unsigned long PyThread_get_thread_ident()

cdef extern from *:
    """
    #include <pthread.h>
    static __thread void* cu_batch = NULL;   /* the Stop of this thread's work item */
    static void* cu_get_batch(void) { return cu_batch; }
    static void cu_set_batch(void* st) { cu_batch = st; }
    static unsigned long cu_self(void) { return (unsigned long)pthread_self(); }
    static int cu_finalizing(void) {
    #if PY_VERSION_HEX >= 0x030D0000
        return Py_IsFinalizing();
    #else
        return _Py_IsFinalizing();
    #endif
    }
    """
    void* cu_get_batch() noexcept nogil
    void cu_set_batch(void* st) noexcept nogil
    unsigned long cu_self() noexcept nogil
    int cu_finalizing() noexcept nogil

cdef double POLL_EVERY = 0.005     # seconds between looks at Python's pending signals
cdef unsigned long _main_ident = threading.main_thread().ident


cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec


cdef void stop_start(Stop* st) noexcept:
    st.stopped = 0
    st.polls = PyThread_get_thread_ident() == _main_ident
    st.poller = cu_self()
    st.last_poll = 0.0
    st.exc[0] = st.exc[1] = st.exc[2] = NULL
    cu_set_batch(st)


cdef int stop_enter(Stop* st) noexcept nogil:
    cu_set_batch(st)
    return poll_interrupt()


cdef void stop_leave() noexcept nogil:
    cu_set_batch(NULL)


cdef int poll_interrupt() noexcept nogil:
    cdef Stop* st = <Stop*>cu_get_batch()
    cdef double now
    cdef PyObject* t
    cdef PyObject* v
    cdef PyObject* tb
    if st == NULL:
        return 0
    if st.stopped:
        return 1
    if not st.polls or cu_self() != st.poller:
        return 0
    now = _now()
    if now - st.last_poll < POLL_EVERY:
        return 0
    st.last_poll = now
    if cu_finalizing():         # (not while the main thread is here; a safeguard)
        return 0
    with gil:
        if PyErr_CheckSignals() != 0:
            PyErr_Fetch(&t, &v, &tb)
            st.exc[0], st.exc[1], st.exc[2] = <void*>t, <void*>v, <void*>tb
            st.stopped = 1
    return st.stopped


cdef int stop_finish(Stop* st) except -1:
    cu_set_batch(NULL)
    if not st.stopped:
        return 0
    st.stopped = 0
    if st.exc[0] == NULL:
        raise KeyboardInterrupt
    PyErr_Restore(<PyObject*>st.exc[0], <PyObject*>st.exc[1], <PyObject*>st.exc[2])
    st.exc[0] = st.exc[1] = st.exc[2] = NULL
    return -1
