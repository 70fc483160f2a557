"""The core's C functions, called from tests without hooks in the library: Cython
exports every function a native module's .pxd declares (for `cimport`) as a capsule in
the module's `__pyx_capi__`, and ctypes calls it on a copy of a game's State.

The random sampler (`cuttle._sampler`) is reached this way, and the seeding of a random
stream is written out here from _rng.pxd (xoshiro256** seeded by splitmix64), so that a
test can follow a native stream draw by draw.
"""

import ctypes
import pathlib
import re

import cuttle
from cuttle import _sampler

MASK64 = (1 << 64) - 1
STREAM_PLAYOUT = 1              # _rng.pxd's named streams
STREAM_DECISION = 3

_name = ctypes.pythonapi.PyCapsule_GetName
_name.restype, _name.argtypes = ctypes.c_char_p, [ctypes.py_object]
_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_pointer.restype, _pointer.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]


def c_function(module, name, restype, *argtypes):
    """The C function `name` that `module`'s .pxd declares, callable through ctypes."""
    capsule = module.__pyx_capi__[name]
    return ctypes.CFUNCTYPE(restype, *argtypes)(_pointer(capsule, _name(capsule)))


def _crules_fields():
    # CRules as _state.pxd declares it: int32 fields, king_goals an array of 5.
    text = (pathlib.Path(cuttle.__file__).parent / "_state.pxd").read_text()
    body = text.split("ctypedef struct CRules:")[1].split("\n\n")[0]
    fields = []
    for name, size in re.findall(r"^\s+int32_t (\w+)(?:\[(\d+)\])?", body, re.M):
        fields.append((name, ctypes.c_int32 * int(size) if size else ctypes.c_int32))
    return fields


class CRules(ctypes.Structure):
    _fields_ = _crules_fields()


Rng = ctypes.c_uint64 * 4
_P = ctypes.c_void_p
_INT_P = ctypes.POINTER(ctypes.c_int)
_main_move = c_function(_sampler, "main_move", ctypes.c_uint32, _P, _P, _P, ctypes.c_int, _INT_P)
_other_move = c_function(_sampler, "other_move", ctypes.c_uint32, _P, _P, _P, ctypes.c_int,
                         _INT_P)
_listed = c_function(_sampler, "listed_random_move", ctypes.c_uint32, _P, _P, _P)


def c_state(game):
    """(State, CRules) of a Game, as C structs for the exported functions."""
    state = ctypes.create_string_buffer(game._core_state_bytes())
    rules = CRules()
    for name, value in game.rules.c_fields().items():
        if isinstance(value, tuple):
            getattr(rules, name)[:] = value
        else:
            setattr(rules, name, value)
    return state, rules


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def stream(seed, index):
    """The Rng state of stream `index` of `seed` (_rng.pxd's rng_seed)."""
    x, base = _splitmix64(seed)
    x = base ^ ((index * 0xD1B54A32D192ED03) & MASK64)
    words = []
    for _ in range(4):
        x, z = _splitmix64(x)
        words.append(z)
    return Rng(*words)


def sampler_moves(game):
    """The random sampler's count and its k-th move for every k (which must be
    gen_moves' list); None in a 7's reveal, which the sampler leaves to gen_moves."""
    state, rules = c_state(game)
    count = ctypes.c_int(0)
    pick = _main_move if game.phase == "main" else _other_move
    first = pick(state, ctypes.byref(rules), None, 0, ctypes.byref(count))
    if count.value == 0:
        return None
    return [first] + [pick(state, ctypes.byref(rules), None, k, ctypes.byref(count))
                      for k in range(1, count.value)]


def random_moves(game, rng, count):
    """`count` draws of the random policy in `game` from the Rng `rng` (advanced), as
    _sampler.pxd's random_move makes them."""
    state, rules = c_state(game)
    n = ctypes.c_int(0)
    out = []
    for _ in range(count):
        if game.phase == "main":
            m = _main_move(state, ctypes.byref(rules), rng, -1, ctypes.byref(n))
        else:
            m = _other_move(state, ctypes.byref(rules), rng, -1, ctypes.byref(n))
            if n.value == 0:
                m = _listed(state, ctypes.byref(rules), rng)
        out.append(m)
    return out


def random_playout(game, seed):
    """Play `game` to its end with the random policy drawing from stream STREAM_PLAYOUT
    of `seed` (a native random game of a run draws from policy_stream(i) = 2i + 1, so
    game 0 of a run uses this very stream); returns the moves played."""
    rng = stream(seed, STREAM_PLAYOUT)
    n = 0
    while not game.is_over:
        game.play(random_moves(game, rng, 1)[0])
        n += 1
    return n
