# cython: language_level=3
# One decision on one game (decide, for cuttle.policies.Bot) and the search trees a bot
# keeps between its decisions in a game.

from libc.stdint cimport uint64_t
from cuttle._state cimport State, CRules
from cuttle._search cimport Tree
from cuttle._core cimport CoreGame

cdef class SearchTrees:
    cdef Tree* trees                 # one per thread of a root-parallel search
    cdef int count
    cdef State root                  # the position of the last search
    cdef CRules rules                # and its rules
    cdef Py_ssize_t ply              # its ply in the game's history
    cdef State start                 # the game's start
    cdef uint64_t history            # and its moves up to the search (history_digest)
    cdef int valid

    cdef void clear(self)
    cdef int follows(self, CoreGame game)
    # Fresh trees: the opponent's decisions since the searcher's first one with a
    # choice in game's history, read back from it (what a bot that followed saw).
    cdef void recall(self, CoreGame game)
    # Advance the trees to game's position, or drop them if it does not follow from
    # the last search by the game's moves since, under the same rules (MemoryError if
    # the trees cannot be rebuilt).
    cdef int follow(self, CoreGame game) except -1
    cdef void searched(self, CoreGame game)
