"""Every state a game reaches loads back from outside: the core's checks of a state that
comes in (`_checks.check_state`, behind pickles and position text) refuse none of them,
under every preset and every variant the atlas plays, whoever plays.  Refusing a
reachable state would be a rule bug; so the states that the strictest of those checks
let through only just -- a freeze whose 9 a 3 took back from the scrap, a hand above the
limit at a turn's start -- are counted, and must be met many times.

A pickle's load checks every state of its history (and replays each move), so one pickle
of a whole game checks all its states; position text is read back for the main-phase
states that hold a freeze or a hand above the limit, and for a sample of the others."""

import pickle
import random
import struct
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cuttle
from cuttle import _play
from cuttle._core import PHASE_NAMES, VERBS, _state_layout
from cuttle._policies import POLICIES
from cuttle.variants.rulesets import variants

from support.helpers import random_rules

NINES = 0xF << 32                    # natural indices 32..35 (_state.pxd's masks)
ONEOFF, RESOLVE, TAKE, DRAW = (VERBS.index(v) for v in ("oneoff", "resolve", "take", "draw"))
MAIN, DISCARD, OVER = (PHASE_NAMES.index(p) for p in ("main", "discard", "over"))
_LAYOUT = _state_layout()
_PAIR = struct.Struct("<2Q")
_INT = struct.Struct("<i")


def popcount(mask):
    return bin(mask).count("1")         # (int.bit_count needs Python 3.10)


def text_reads_back(g):
    """g's position text read back as the same text; False where the text cannot carry
    g's rule state (a pass just played, a countdown), which `position_text` refuses."""
    try:
        text = g.position_text()
    except ValueError as e:
        assert "position text cannot carry this position" in str(e), e
        return False
    assert cuttle.Game.from_text(text).position_text() == text
    return True


class Looker:
    """Tallies, in `met`, what the states of games under `rules` hold that the checks
    could refuse, and reads the position text of main-phase states back: those holding
    it (of those with a freeze, `frozen_texts` of them; a tenth of the many hands above
    a no_draw limit), and `sample` of the others."""

    def __init__(self, rules, met, rng, sample=0.005, frozen_texts=1.0):
        self.met, self.rng, self.sample, self.frozen_texts = met, rng, sample, frozen_texts
        self.limit = 99 if rules.hand_limit is None else rules.hand_limit
        self.no_draw = rules.hand_limit_mode == "no_draw"

    def __call__(self, g):
        raw, met = g._core_state_bytes(), self.met
        phase = _INT.unpack_from(raw, _LAYOUT["phase"][0])[0]
        turn = _INT.unpack_from(raw, _LAYOUT["turn"][0])[0]
        f0, f1 = _PAIR.unpack_from(raw, _LAYOUT["frozen"][0])
        n0, n1 = _PAIR.unpack_from(raw, _LAYOUT["frozen_next"][0])
        other = popcount(_PAIR.unpack_from(raw, _LAYOUT["hand"][0])[1 - turn])
        met["states"] += 1
        text = self.rng.random() < self.sample
        frozen = f0 | f1 | n0 | n1
        if frozen:
            met["frozen"] += 1
            text = self.rng.random() < self.frozen_texts
            nines = sum(1 << c for c in g._core_scrap()) & NINES
            if popcount(frozen) > popcount(nines):           # a 3 took a 9 back
                text = True
                met["nine taken, turn's start" if phase == MAIN else
                    "nine taken, turn's end" if phase in (DISCARD, OVER) else
                    "nine taken, mid-turn"] += 1
        if other > self.limit and phase == MAIN:
            text = text or not self.no_draw or self.rng.random() < 0.1   # (no_draw: many)
            met["over the limit, no draw" if self.no_draw else "over the limit, the deal"] += 1
        elif other > self.limit and phase != OVER:
            met["over the limit, mid-turn"] += 1
        if phase == MAIN and text:
            met["texts"] += text_reads_back(g)


def loads_whole(g):
    """g's pickle loads: each state of its history checked, each move replayed."""
    assert pickle.loads(pickle.dumps(g)) == g


def rule_sets():
    """Every preset, every variant of the atlas on both bases, each of them freezing too
    (with and without targets_own_side), and deals above small hand limits."""
    out = [cuttle.Rules(p) for p in cuttle.Rules.presets]
    out += [v.rules for base in ("classic", "cuttle.cards") for v in variants(base)]
    out += [r.replace(nine="freeze", targets_own_side=own) for r in list(out)
            for own in (False, True)]
    out += [cuttle.Rules(base, hand_limit=limit, hand_limit_mode=mode, deal=deal)
            for base in ("classic", "cuttle.cards") for limit in (0, 3, 5)
            for mode in ("discard", "no_draw") for deal in ((5, 6), (8, 8), (2, 7))]
    unique = []
    for r in out:
        if r not in unique:
            unique.append(r)
    return unique


# (seat A, seat B, games per rule set)
PLAYERS = [("random", "random", 20), ("greedy", "random", 2), ("expert", "random", 2),
           ("cuttle.cards-ai", "expert", 1)]


@pytest.mark.filterwarnings("ignore::cuttle.rules.DegenerateRulesWarning")   # hand_limit=0
def test_every_state_the_native_players_reach_loads():
    """Games of the native players (random, greedy, expert, cuttle.cards-ai) under every
    rule set of `rule_sets`: each game's pickle loads, and the position text of its
    main-phase states reads back; among them hands above the limit at a turn's start
    (the deal's, and any under no_draw) and mid-turn."""
    rng, met = random.Random(7), Counter()
    for k, rules in enumerate(rule_sets()):
        look = Looker(rules, met, rng)
        for j, (a, b, n) in enumerate(PLAYERS):
            for i in range(100 * j, 100 * j + n):
                _, codes = _play.play_logged(rules, k, i, POLICIES[a][0], POLICIES[b][0])
                g = cuttle.Game.from_run(rules, seed=k, index=i)
                look(g)
                for code in codes:
                    g.play(int(code))
                    look(g)
                loads_whole(g)
    assert met["states"] > 150_000 and met["texts"] > 2_000 and met["frozen"] > 2_000
    assert met["over the limit, the deal"] > 300 and met["over the limit, no draw"] > 2_000
    assert met["over the limit, mid-turn"] > 1_500


def favoured(codes, rng):
    """A random move, but three times in four a favoured one when there is one, the
    first kind first: taking a 9 from the scrap, letting a one-off resolve, a 3 or a 9
    played as a one-off, a draw (which keeps hands full, so a 3's pick may end in a
    hand-limit discard)."""
    for verb, ranks in ((TAKE, (8,)), (RESOLVE, None), (ONEOFF, (2, 8)), (DRAW, None)):
        liked = [c for c in codes if c & 15 == verb and (ranks is None
                                                         or (c >> 4 & 63) >> 2 in ranks)]
        if liked and rng.random() < 0.75:
            return rng.choice(liked)
    return rng.choice(codes)


def play_favoured(g, look, rng, moves):
    """Up to `moves` favoured moves (`favoured`), every state looked at, then g loaded
    whole."""
    look(g)
    while not g.is_over and g.ply < moves:
        g.play(favoured(g._core_legal_codes(), rng))
        look(g)
    loads_whole(g)


def freezing_rules(rng):
    """Random rules that freeze, often with a small hand limit (a discard phase after a
    3 took a 9 back) and sudden death (a game that ends there)."""
    rules = random_rules(rng, p_change=0.3).replace(nine="freeze",
                                                    targets_own_side=rng.random() < 0.6)
    if rng.random() < 0.6:
        rules = rules.replace(hand_limit=rng.choice([2, 3, 4, 5]), hand_limit_mode="discard")
    return rules.replace(sudden_death=True) if rng.random() < 0.3 else rules


def test_every_freeze_a_game_makes_loads():
    """Games from a deal under random rules that freeze, 9s and 3s favoured: every state
    loads, many with a frozen card, some whose 9 a 3 took back."""
    rng, met = random.Random(11), Counter()
    for k in range(1_000):
        rules = freezing_rules(rng)
        play_favoured(cuttle.Game(rules, seed=k), Looker(rules, met, rng, frozen_texts=0.1),
                      rng, 400)
    assert met["states"] > 60_000 and met["frozen"] > 4_000
    assert met["nine taken, turn's start"] + met["nine taken, turn's end"] > 10


def rich_position(rng, rules):
    """A position without a freeze where freezes come fast: each player holds a 9 and a
    3 and is at the hand limit (6 without one), with one to three Kings, Queens or
    glasses-8s, a point card (the second player's under a Jack) and an empty scrap."""
    cards = list(range(52))
    rng.shuffle(cards)
    by = {}
    for c in cards:
        by.setdefault({2: "3", 8: "9", 10: "J"}.get(c >> 2, "royal" if c >> 2 in (7, 11, 12)
                                                    else "other"), []).append(c)
    size = 6 if rules.hand_limit is None else rules.hand_limit
    hands = [[by["9"].pop(), by["3"].pop()] for _ in (0, 1)]
    for h in hands:
        h += [by["other"].pop() for _ in range(size - 2)]
    name = cuttle.CARDS.__getitem__
    return dict(hands=[[str(name(c)) for c in h] for h in hands],
                permanents=[[str(name(by["royal"].pop())) for _ in range(rng.randint(1, 3))]
                            for _ in (0, 1)],
                points=([str(name(by["other"].pop()))],
                        [f"{name(by['other'].pop())}[{name(by['J'].pop())}]"]),
                to_move=rng.randint(0, 1))


def test_every_state_after_a_position_without_freezes_loads():
    """From positions without a freeze where both players hold a 9 and a 3, under random
    rules that freeze: every state the rules lead to loads (which freezes a 9 makes, and
    where their 9s go, start afresh there), among them many whose 9 a 3 took back, at a
    turn's start (the last turn's 3: the mover's own 9 froze its card the turn before)
    and at its end (this turn's 3, before its hand-limit discard or sudden death's end)."""
    rng, met = random.Random(5), Counter()
    for k in range(1_000):
        rules = freezing_rules(rng).replace(one_queen_each=False,
                                            king_goals=(60, 50, 40, 30, 20))
        g = cuttle.Game.from_position(rules, seed=k, **rich_position(rng, rules))
        play_favoured(g, Looker(rules, met, rng, frozen_texts=0.1), rng, 30)
    assert met["states"] > 25_000 and met["frozen"] > 6_000
    assert met["nine taken, turn's start"] > 40 and met["nine taken, turn's end"] > 80


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_every_state_of_a_game_under_random_rules_loads(seed):
    """The same under any rule set hypothesis finds: every state a game reaches, 9s
    and 3s favoured, loads."""
    rng = random.Random(seed)
    rules = random_rules(rng, p_change=0.4)
    if rng.random() < 0.5:
        rules = rules.replace(nine="freeze")
    play_favoured(cuttle.Game(rules, seed=rng.getrandbits(32)),
                  Looker(rules, Counter(), rng), rng, 400)
