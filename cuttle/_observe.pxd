# cython: language_level=3
# The observation encoding in the core: one player's view of a State as the fixed-size
# float32 vector that cuttle.observation.Observation.to_array() specifies (its readable
# twin; tests keep the two equal).  Layout: 14 planes of NCARDS (53) cards (OBS_PLANES),
# then 10 scalars, then the phase one-hot.

from cuttle._state cimport State, CRules, NCARDS

cdef enum:
    OBS_PLANES = 14
    OBS_SCALARS = NCARDS * OBS_PLANES
    OBS_PHASE = OBS_SCALARS + 10
    OBS_SIZE = OBS_PHASE + 10          # N_PHASES; == observation.OBSERVATION_SIZE (762)

# Write player p's observation of s to out[0 .. OBS_SIZE).
cdef void encode_observation(const State* s, const CRules* r, int p,
                             float* out) noexcept nogil
