# cython: language_level=3
# Random streams: xoshiro256** seeded through splitmix64 from a (seed, stream) pair, and
# the named streams of the library.  Every random choice of the core draws from a stream
# passed by pointer (never a global), so a result depends only on its seed and indices,
# never on threads, chunking or machines.

from libc.stdint cimport uint64_t, int8_t
from cuttle._state cimport Rng, cu_mulhi

# The streams of one seed.  A seeded run's game i is dealt from stream deal_stream(i)
# (which also drives the game's own random effects, e.g. a random four) and its players
# draw from policy_stream(i); a single Game(seed) is game 0 of its seed.  The other
# streams belong to single calls, each from its own seed.
cdef enum:
    STREAM_GAME = 0           # a Game's deal and random effects (= deal_stream(0))
    STREAM_PLAYOUT = 1        # CoreGame random playouts
    STREAM_DECISION = 3       # one native policy decision (a Bot's move)
    STREAM_SAMPLE = 7         # one determinization

cdef inline uint64_t deal_stream(uint64_t i) noexcept nogil:
    return 2 * i

cdef inline uint64_t policy_stream(uint64_t i) noexcept nogil:
    return 2 * i + 1

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)

cdef inline void rng_seed(Rng* g, uint64_t seed, uint64_t stream) noexcept nogil:
    # Stream k of a seed: mix the seed, then offset by k odd constants so that
    # (seed, k) pairs give unrelated starting points for splitmix64.
    cdef uint64_t x = seed
    cdef uint64_t base = splitmix64(&x)
    x = base ^ (stream * <uint64_t>0xD1B54A32D192ED03)
    cdef int i
    for i in range(4):
        g.s[i] = splitmix64(&x)

cdef inline uint64_t rng_next(Rng* g) noexcept nogil:
    cdef uint64_t result = rotl(g.s[1] * 5, 7) * 9
    cdef uint64_t t = g.s[1] << 17
    g.s[2] ^= g.s[0]
    g.s[3] ^= g.s[1]
    g.s[1] ^= g.s[2]
    g.s[0] ^= g.s[3]
    g.s[2] ^= t
    g.s[3] = rotl(g.s[3], 45)
    return result

cdef inline uint64_t rng_below(Rng* g, uint64_t n) noexcept nogil:
    # (next * n) >> 64: uniform up to a bias of n / 2**64, and specified exactly so the
    # reference engine can follow the same stream.
    return cu_mulhi(rng_next(g), n)

cdef inline uint64_t derive_seed(uint64_t seed, uint64_t stream) noexcept nogil:
    # A 64-bit seed for stream `stream` of `seed`, for work seeded from Python (a game
    # played by Python policies, a bot's k-th decision, a hint).
    cdef uint64_t x = seed
    x = splitmix64(&x) ^ stream
    return splitmix64(&x)

cdef inline void shuffle(int8_t* cards, int n, Rng* g) noexcept nogil:
    # Fisher-Yates from the end, one draw per position (deals, determinizations).
    cdef int i = n - 1
    cdef int j
    cdef int8_t tmp
    while i > 0:
        j = <int>rng_below(g, i + 1)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
        i -= 1
