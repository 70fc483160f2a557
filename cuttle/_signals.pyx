# cython: language_level=3
"""Ctrl-C inside native work, per batch: see _signals.pxd."""

from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC
from cpython.ref cimport PyObject, Py_INCREF
from cython.parallel cimport prange

import signal
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
    /* Ctrl-C seen by every thread at once (docs in _signals.pxd): while Python's
       handler of SIGINT (or of SIGTERM) would raise KeyboardInterrupt for it, a C
       handler in front of it raises cu_signalled[slot], then hands the signal on to
       Python's.  Slot 0 is SIGINT, 1 SIGTERM. */
    #ifdef _WIN32
    static volatile int cu_signalled[2] = {0, 0};
    static int cu_watch(int slot) { return 0; }
    #else
    #include <signal.h>
    #include <string.h>
    static volatile sig_atomic_t cu_signalled[2] = {0, 0};
    static struct sigaction cu_python[2];           /* the handlers we hand on to */
    static int cu_signum(int slot) { return slot ? SIGTERM : SIGINT; }
    static void cu_on_signal(int sig, siginfo_t* info, void* context) {
        int slot = sig == SIGTERM;
        cu_signalled[slot] = 1;
        if (cu_python[slot].sa_flags & SA_SIGINFO) {
            if (cu_python[slot].sa_sigaction)
                cu_python[slot].sa_sigaction(sig, info, context);
        } else if (cu_python[slot].sa_handler != SIG_DFL
                   && cu_python[slot].sa_handler != SIG_IGN) {
            cu_python[slot].sa_handler(sig);
        }
    }
    static int cu_watch(int slot) {
        /* 1 when our handler is in front (installed now, or still there); 0 if not. */
        struct sigaction now, ours;
        int sig = cu_signum(slot);
        if (sigaction(sig, NULL, &now) != 0)
            return 0;
        if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == cu_on_signal)
            return 1;
        memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = cu_on_signal;
        ours.sa_flags = SA_SIGINFO | (now.sa_flags & (SA_ONSTACK | SA_RESTART));
        sigemptyset(&ours.sa_mask);
        cu_python[slot] = now;
        return sigaction(sig, &ours, NULL) == 0;
    }
    #endif
    /* A token's count of iterations, added to by the threads of a batch. */
    #ifdef _MSC_VER
    #include <intrin.h>
    static void cu_add(long long* x, long long n) { _InterlockedExchangeAdd64(x, n); }
    static long long cu_read(long long* x) { return _InterlockedExchangeAdd64(x, 0); }
    #else
    static void cu_add(long long* x, long long n) { __atomic_fetch_add(x, n, __ATOMIC_RELAXED); }
    static long long cu_read(long long* x) { return __atomic_load_n(x, __ATOMIC_RELAXED); }
    #endif
    static int cu_finalizing(void) {
    #if PY_VERSION_HEX >= 0x030D0000
        return Py_IsFinalizing();
    #else
        return _Py_IsFinalizing();
    #endif
    }
    """
    volatile int cu_signalled[2]
    int cu_watch(int slot) noexcept nogil
    void* cu_get_batch() noexcept nogil
    void cu_set_batch(void* st) noexcept nogil
    unsigned long cu_self() noexcept nogil
    int cu_finalizing() noexcept nogil
    void cu_add(long long* x, long long n) noexcept nogil
    long long cu_read(long long* x) noexcept nogil

cdef double POLL_EVERY = 0.005     # seconds between looks at Python's pending signals
cdef unsigned long _main_ident = threading.main_thread().ident


cdef inline double _now() noexcept nogil:
    cdef timespec t
    clock_gettime(CLOCK_MONOTONIC, &t)
    return t.tv_sec + 1e-9 * t.tv_nsec


cdef class Cancel:
    """A cancel token for native work run in another thread (`_decide.decide`'s
    `cancel`): `cancel()`, from any thread, stops it within a few milliseconds, as a
    Ctrl-C would (it answers with what it has: a search its best move so far), but
    nothing is raised.  `done` is the iterations its searches ran.  One per piece of
    work: a cancelled token stays cancelled."""

    def __cinit__(self):
        self.token.cancelled = 0
        self.token.done = 0

    def cancel(self):
        """Stop the work bound to this token (now, or as soon as it starts)."""
        self.token.cancelled = 1

    @property
    def cancelled(self):
        """Whether `cancel()` was called."""
        return self.token.cancelled != 0

    @property
    def done(self):
        """The iterations the searches bound to this token ran (so far)."""
        return cu_read(&self.token.done)

    def __reduce__(self):       # (bound to running work by address: not copied)
        raise TypeError("a cancel token cannot be pickled")


cdef void stop_bind(Stop* st, Cancel cancel) noexcept:
    st.token = NULL if cancel is None else &cancel.token


cdef void stop_start(Stop* st) noexcept:
    st.stopped = 0
    st.token = NULL
    st.exc[0] = st.exc[1] = st.exc[2] = NULL
    st.polls = PyThread_get_thread_ident() == _main_ident
    st.fast = 0
    cu_signalled[0] = cu_signalled[1] = 0
    # Every thread stops at a Ctrl-C (not only the polling one, which may be waiting
    # for the others) when Python would raise KeyboardInterrupt for it, and at a SIGTERM
    # whose handler stands for Ctrl-C now (cuttle.interrupts.sigterm_as_ctrl_c's: see
    # _signals.pxd).  Asking Python may run its pending signal handlers: what one
    # raises stops the batch before it starts, and stop_finish raises it (it used to be
    # printed and dropped).
    if st.polls:
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler \
                    and cu_watch(0):
                st.fast |= 1
            term = getattr(signal.getsignal(signal.SIGTERM), "stops_native_work", None)
            if term is not None and term() and cu_watch(1):
                st.fast |= 2
        except BaseException as e:
            kind, tb = type(e), e.__traceback__
            Py_INCREF(kind)
            Py_INCREF(e)
            st.exc[0], st.exc[1], st.exc[2] = <void*>kind, <void*>e, NULL
            if tb is not None:
                Py_INCREF(tb)
                st.exc[2] = <void*>tb
            st.stopped = 1
    st.poller = cu_self()
    st.last_poll = 0.0
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
    if st.token != NULL and st.token.cancelled:
        return 1                        # (cancelled: nothing to raise)
    if (st.fast & 1 and cu_signalled[0]) or (st.fast & 2 and cu_signalled[1]):
        st.stopped = 1                  # (Python's handler will raise: see stop_finish)
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


cdef int stop_seen() noexcept nogil:
    cdef Stop* st = <Stop*>cu_get_batch()
    return st != NULL and (st.stopped or (st.token != NULL and st.token.cancelled))


cdef void work_done(long long n) noexcept nogil:
    cdef Stop* st = <Stop*>cu_get_batch()
    if st != NULL and st.token != NULL:
        cu_add(&st.token.done, n)


cdef int stop_finish(Stop* st) except -1:
    cu_set_batch(NULL)
    if not st.stopped:
        return 0
    st.stopped = 0
    if st.exc[0] == NULL and PyErr_CheckSignals() != 0:
        return -1                   # (stopped by cu_signalled: Python's handler raised)
    if st.exc[0] == NULL:
        raise KeyboardInterrupt
    PyErr_Restore(<PyObject*>st.exc[0], <PyObject*>st.exc[1], <PyObject*>st.exc[2])
    st.exc[0] = st.exc[1] = st.exc[2] = NULL
    return -1


def _stop_reaches_a_waiting_batch(double seconds):
    """For tests: a batch of two items on two threads, where the calling (polling)
    thread's item ends at once and the other polls for up to `seconds`; a Ctrl-C in
    between must stop it (KeyboardInterrupt) without the polling thread's help."""
    cdef Stop stop
    cdef int i
    cdef double start
    stop_start(&stop)
    for i in prange(2, nogil=True, num_threads=2, schedule="static", chunksize=1):
        if not stop_enter(&stop) and i == 1:
            start = _now()
            while _now() - start < seconds and not poll_interrupt():
                pass
        stop_leave()
    stop_finish(&stop)
