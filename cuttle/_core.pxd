# cython: language_level=3
# CoreGame's C fields, for the native modules that work on a game's state (_play).

from libc.stdint cimport uint32_t
from cuttle._state cimport State, CRules

cdef class CoreGame:
    cdef State st
    cdef CRules cr
    cdef State* hist             # the state before each move played (undo)
    cdef uint32_t* hist_moves
    cdef Py_ssize_t nhist
    cdef Py_ssize_t cap
    cdef int _reserve(self, Py_ssize_t n) except -1
