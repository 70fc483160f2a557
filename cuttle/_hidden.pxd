# cython: language_level=3
# Hidden information: what one player cannot know, and samples consistent with their view.

from cuttle._state cimport State, CRules, Rng

# Redistribute, in place, the cards player p cannot know (the opponent's unknown hand
# cards and the deck cards whose place is not public) among those same places,
# uniformly from stream g; the sample depends only on p's view.
cdef void determinize(State* s, const CRules* r, int p, Rng* g) noexcept nogil
