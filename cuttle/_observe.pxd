# cython: language_level=3
# The observation encoding in the core: one player's view of a State as the fixed-size
# float32 vector that cuttle.observation.Observation.to_array() specifies (its readable
# twin; tests keep the two equal).  Layout: 14 planes of NCARDS (53) cards (OBS_PLANES),
# then 10 scalars, then the phase one-hot, then 4 more planes (OBS_LATE_PLANES, after the
# phase so that the first 762 entries kept their meaning when they came), then where each
# Jack lies: per Jack (by suit) a one-hot over the FIRST_JACK (40) point cards
# (OBS_JACK_ON), then the Jacks' heights in their stacks (OBS_JACK_HEIGHT), then one more
# plane, last so that the first 1,138 entries kept their meaning: the card the move
# waiting on the stack targets (OBS_TARGET).  OBS_SIZE is the one definition of the size
# (cuttle.observation.OBSERVATION_SIZE reads it).

from cuttle._state cimport State, CRules, NCARDS, FIRST_JACK, MAX_JACKS

cdef enum:
    OBS_PLANES = 14
    OBS_SCALARS = NCARDS * OBS_PLANES
    OBS_PHASE = OBS_SCALARS + 10
    OBS_LATE = OBS_PHASE + 10           # + N_PHASES
    OBS_LATE_PLANES = 4
    OBS_JACK_ON = OBS_LATE + NCARDS * OBS_LATE_PLANES
    OBS_JACK_HEIGHT = OBS_JACK_ON + MAX_JACKS * FIRST_JACK
    OBS_TARGET = OBS_JACK_HEIGHT + MAX_JACKS
    OBS_SIZE = OBS_TARGET + NCARDS

# Write player p's observation of s to out[0 .. OBS_SIZE).
cdef void encode_observation(const State* s, const CRules* r, int p,
                             float* out) noexcept nogil
