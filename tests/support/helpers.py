"""Shared test helpers: snapshots of a game's public views, random rule sets, the
command line run in-process."""

import base64
import gzip
import io
import json
import random
import re
import sys

import numpy as np

import cuttle
from cuttle.rules import FLAG_NAMES, FLAGS


def unpack(page):
    """(pictures, steps) stored in a replay page."""
    packed = re.search(r'id="cuttle-pictures">([^<]*)<', page).group(1)
    pictures = json.loads(gzip.decompress(base64.b64decode(packed)))
    steps = json.loads(re.search(r'id="cuttle-steps">([^<]*)<', page).group(1))
    return pictures, steps


def zones(g):
    """Every card's place, from the public views only."""
    out = []
    for p in (0, 1):
        out += [(c, f"hand{p}") for c in g.hand(p)]
        out += [(c, f"perm{p}") for c in g.permanents(p)]
        for c in g.points(p):
            out.append((c, f"points{p}"))
            out += [(j, f"jack{p}") for j in g.jacks(c)]
    out += [(c, "scrap") for c in g.scrap]
    out += [(c, "deck") for c in g.deck]
    out += [(c, "revealed") for c in g.revealed]
    out += [(c, "stack") for c in g.stack]
    return out


def snapshot(g):
    """The public state of a cuttle.Game in the reference engine's snapshot format."""
    def stack_text(c):
        js = g.jacks(c)
        return f"{c}[{','.join(js)}]" if js else str(c)

    return {
        "phase": g.phase,
        "turn": g.turn,
        "to_move": g.to_move,
        "winner": g.winner,
        "over": g.is_over,
        "end_reason": g.end_reason,
        "hands": tuple([str(c) for c in g.hand(p)] for p in (0, 1)),
        "points": tuple([stack_text(c) for c in g.points(p)] for p in (0, 1)),
        "permanents": tuple([str(c) for c in g.permanents(p)] for p in (0, 1)),
        "scrap": [str(c) for c in g.scrap],
        "deck": [str(c) for c in g.deck],
        "revealed": [str(c) for c in g.revealed],
        "stack": [str(c) for c in g.stack],
        "scores": (g.score(0), g.score(1)),
        "goals": (g.goal(0), g.goal(1)),
        "frozen": tuple([str(c) for c in g.frozen(p)] for p in (0, 1)),
    }


# The values `random_rules` tries: a bool flag both, a choice flag every value it takes
# (from FLAGS: a new value is tried at once), and a few picked for the other kinds (a
# flag of another kind with none picked: KeyError here, not a flag left untried).
_PICKED = {
    "hand_limit": [None, None, 8, 7, 5, 3],
    "king_goals": [(21, 14, 10, 7, 5), (21, 14, 10, 5, 0), (15, 14, 10, 7, 5), (11, 9, 7, 5, 3),
                   (60, 50, 40, 30, 20)],  # long games reach the empty deck
    "deal": [(5, 6), (6, 6), (5, 5), (6, 5), (1, 1), (8, 8), (8, 2), (3, 7)],
}
_CHOICES = {name: [False, True] if f.kind == "bool" else list(f.values) if f.kind == "choice"
            else _PICKED[name] for name, f in FLAGS.items()}


def views(g, p):
    """p's observation at every step of g, from its start."""
    out, x = [], g.copy()
    while True:
        out.append(x.observation(p))
        if not x.ply:
            return out[::-1]
        x.undo()


def random_rules(rng: random.Random, p_change=0.3) -> cuttle.Rules:
    """A random preset with each flag changed with probability p_change."""
    rules = cuttle.Rules(rng.choice(cuttle.Rules.presets))
    flags = {}
    for name in FLAG_NAMES:
        if rng.random() < p_change:
            flags[name] = rng.choice(_CHOICES[name])
    if flags.get("hand_limit", rules.hand_limit) is None:
        flags["hand_limit_mode"] = "discard"
    return rules.replace(**flags)


def walk(rules, seed, favour=None):
    """Every position of a game played with random legal moves (up to 400); with
    `favour(game, move)`, half the time one of the favoured moves when there is one."""
    rng = random.Random(seed)
    g = cuttle.Game(rules, seed=seed)
    yield g
    while not g.is_over and g.ply < 400:
        moves = list(g.legal_moves)
        liked = [m for m in moves if favour(g, m)] if favour else []
        g.play(rng.choice(liked if liked and rng.random() < 0.5 else moves))
        yield g


def placing_moves(g, m) -> bool:
    """The moves that make a card's place or freeze public beyond the usual (for `walk`):
    a 7 (its unchosen card stays on the deck, placed), a 9 on the mover's own side (its
    card frozen into the next turn, or put on the deck), a Jack (stacks of several, on
    several cards) and a 2 or 9 on a Jack (taking it off its stack), and letting a
    one-off resolve."""
    if m.verb in ("resolve", "jack"):
        return True
    if m.verb != "oneoff" or m.cards[0].rank not in (2, 7, 9):
        return False
    if m.cards[0].rank == 7:
        return True
    if len(m.cards) < 2:
        return m.cards[0].rank == 9
    me, target = g.to_move, m.cards[1]
    if target.rank == 11:
        return True
    return m.cards[0].rank == 9 and (target in g.points(me) or target in g.permanents(me))


def targeting_moves(g, m) -> bool:
    """The moves that put a targeted move on the stack, or give one something to target
    (for `walk`): a one-off with a target (a 2 on a permanent or a Jack, a 9, an 8 on
    glasses), a scuttle (blockable under ten_blocks_scuttle), a King, Queen, glasses-8
    or Jack."""
    if m.verb == "oneoff":
        return len(m.cards) == 2
    return m.verb in ("scuttle", "royal", "glasses", "jack")


def targeting_rules(seed) -> cuttle.Rules:
    """Random rules (`random_rules` of `seed`) where an 8 one-off breaks glasses and a
    10 blocks a scuttle (for `walk` with `targeting_moves`)."""
    return random_rules(random.Random(seed), p_change=0.4).replace(
        eight_breaks_glasses=True, ten_blocks_scuttle=True)


def pending_target_of(g):
    """The card the move waiting on the stack targets, read from the moves played (the
    encoding's `target` plane): the announced one-off's target while its counters are
    played, the scuttle's while its victim may block it; None otherwise."""
    if g.phase not in ("counter", "block"):
        return None
    move = next(m for m in reversed(g.moves) if m.verb in ("oneoff", "scuttle"))
    return move.cards[1] if len(move.cards) == 2 else None


def jack_places_of(g):
    """Where each Jack lies by the game's own account of the stacks, as the encoding
    holds it (`cuttle.observation.jack_places`): (on (4, 40), height (4,))."""
    from cuttle.observation import JACKS, POINT_SLOTS
    on, height = np.zeros((len(JACKS), POINT_SLOTS), np.float32), np.zeros(4, np.float32)
    for side in (0, 1):
        for c in g.points(side):
            for h, j in enumerate(g.jacks(c), 1):       # bottom first
                on[JACKS.index(j), c.index], height[JACKS.index(j)] = 1.0, h / 4
    return on, height


# What position text does not carry of a player's view (cuttle.position): its knowledge of
# hidden cards, as Observation fields and as the planes of the encoding made from them.
KNOWLEDGE_FIELDS = ("opponent_known", "deck_known")
KNOWLEDGE_PLANES = ("opponent_hand_known", "deck_known", "deck_depth", "unknown")


def view_but_knowledge(g, p):
    """Player p's view of g but for its knowledge of hidden cards: (the observation with
    the KNOWLEDGE_FIELDS emptied, its encoding with the KNOWLEDGE_PLANES zeroed as
    bytes, the hidden cards as a whole: the opponent's hand and the deck, known or not)."""
    import dataclasses

    from cuttle.observation import plane
    obs, arr = g.observation(p), g.observation_array(p).copy()
    hidden = set(obs.unknown_cards) | set(obs.opponent_known) | {c for _, c in obs.deck_known}
    for name in KNOWLEDGE_PLANES:
        plane(arr, name)[:] = 0
    return (dataclasses.replace(obs, **{f: () for f in KNOWLEDGE_FIELDS}), arr.tobytes(),
            hidden)


def rule_state(g):
    """What decides how g goes on besides its cards and rules, from the native state:
    the freezes, whose turn and decision, the passes in a row and the sudden-death
    countdown (turns left after this one, -1 for none)."""
    import struct

    from cuttle._core import _state_layout
    raw, layout = g._core_state_bytes(), _state_layout()

    def f(name, i=0):
        at, fmt = layout[name]
        return struct.unpack_from(fmt, raw, at + i * struct.calcsize(fmt))[0]

    last = f("last_turn")
    return {"frozen": (f("frozen", 0), f("frozen", 1)),
            "frozen_next": (f("frozen_next", 0), f("frozen_next", 1)),
            "phase": f("phase"), "turn": f("turn"), "to_move": f("to_move"),
            "winner": f("winner"), "passes": f("passes"),
            "countdown": last - f("turn_number") if last >= 0 else -1}


def table(g):
    """Every card's place and the rest of the table position text must carry."""
    return {
        "hands": [list(g.hand(p)) for p in (0, 1)],
        "points": [[(c, tuple(g.jacks(c))) for c in g.points(p)] for p in (0, 1)],
        "permanents": [list(g.permanents(p)) for p in (0, 1)],
        "scrap": list(g.scrap),
        "deck": list(g.deck),
        "to_move": g.to_move,
        "turn": g.turn,
        "phase": g.phase,
        "scores": (g.score(0), g.score(1)),
        "goals": (g.goal(0), g.goal(1)),
        "rules": g.rules,
    }


def same_position(back, g):
    """`back`, read from g's position text, is g's position (cuttle.position): the same
    cards, rule state, freezes, legal moves, player to move and text, and both players'
    views but for their knowledge of hidden cards, which in `back` starts afresh: only
    what the position implies (the other's frozen cards, a public hand), and never more
    than g's players know."""
    assert table(back) == table(g)
    assert rule_state(back) == rule_state(g)
    assert list(back.legal_moves) == list(g.legal_moves)
    for p in (0, 1):
        assert back.frozen(p) == g.frozen(p)
        assert view_but_knowledge(back, p) == view_but_knowledge(g, p)
        fresh, old = back.observation(p), g.observation(p)
        o = 1 - p
        implied = (set(back.hand(o)) if fresh.opponent_hand_public
                   else set(fresh.frozen[o]) | set(fresh.frozen_next[o]))
        assert set(fresh.opponent_known) == implied <= set(old.opponent_known)
        assert fresh.deck_known == ()
    assert back.position_text() == g.position_text()


def placing_rules(seed, nine) -> cuttle.Rules:
    """Random rules (`random_rules` of `seed`) where a 9 may target its own side and
    `nine` is "freeze" or "topdeck" (for `walk` with `placing_moves`)."""
    return random_rules(random.Random(seed), p_change=0.4).replace(
        nine=nine, targets_own_side=True)


def random_game(rng: random.Random, max_moves=None, rules=None) -> cuttle.Game:
    """A game from a random deal advanced by random legal moves."""
    g = cuttle.Game(rules or random_rules(rng), seed=rng.getrandbits(32))
    for _ in range(rng.randint(0, 80) if max_moves is None else max_moves):
        if g.is_over:
            break
        g.play(rng.choice(list(g.legal_moves)))
    return g


def reference_from_game(g):
    """A ReferenceGame holding the same main-phase position (and random stream) as g."""
    from support.reference import ReferenceGame

    s = snapshot(g)
    assert s["phase"] == "main" or (s["over"] and not g.moves), \
        "the reference engine is built from main-phase positions"
    return ReferenceGame(dict(g.rules.flags), hands=s["hands"], points=s["points"],
                         permanents=s["permanents"], scrap=s["scrap"], deck=s["deck"],
                         turn=g.turn, rng_state=g._core_rng_state())


def run_cli(monkeypatch, capsys, argv, stdin=""):
    """`cuttle ARGV` in this process with `stdin` as its input: (status, stdout, stderr)."""
    from cuttle.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def hidden_cards_record(directory, p1_hand, deck, name):
    """A record, saved as `name` in `directory`, of three moves from a position where
    P0 holds 7H 9C KS 2D QH and P1 `p1_hand` over `deck` (seed 8): two such records
    differ only in what P0 cannot see at move 3.  (Its path, and the game before move 3.)"""
    from cuttle.record import game_before, make_record, read_record, write_record
    start = cuttle.Game.from_position(hands=(["7H", "9C", "KS", "2D", "QH"], p1_hand),
                                      deck=deck, rest="deck", seed=8)
    g = start.copy()
    for m in ("points 9C", "draw", "points 7H"):
        g.play(m)
    path = directory / name
    write_record(make_record(g, players=["a", "b"],
                             position=start.position_text(rules=False)), path)
    return path, game_before(read_record(path), 3)


def recorded_bot_game(directory, seed):
    """A finished game of expert (P0, "ann") against random (P1, "bob") from deal `seed`,
    saved as a game record in `directory`: (the record's path, the Game)."""
    from cuttle.policies import Bot
    from cuttle.record import make_record, write_record
    g = cuttle.Game(seed=seed)
    bots = (Bot("expert", 1), Bot("random", 2))
    while not g.is_over:
        g.play(bots[g.to_move].choose(g))
    path = directory / "game.json"
    write_record(make_record(g, players=["ann", "bob"]), path)
    return path, g


def bot_game(names, seed, plies=None):
    """A game between two bots named `names` seeded `seed` and `seed + 1` from deal
    `seed` (its first `plies` moves only, when given)."""
    from cuttle.policies import Bot
    g = cuttle.Game(seed=seed)
    bots = (Bot(names[0], seed), Bot(names[1], seed + 1))
    while not g.is_over and (plies is None or g.ply < plies):
        g.play(bots[g.to_move].choose(g))
    return g


def deal_of(g):
    """`Game.from_position`'s arguments for the deal of g (a game at its start)."""
    return dict(hands=tuple([str(c) for c in g.hand(p)] for p in (0, 1)),
                deck=[str(c) for c in g.deck], to_move=g.to_move, seed=g.seed)


def played(deal, moves):
    """The game of `deal` (deal_of's arguments) after `moves`."""
    g = cuttle.Game.from_position(**deal)
    for m in moves:
        g.play(m)
    return g


def redealt(deal, moves, seed):
    """The deal with the cards that the player to move after `moves` cannot place then
    shuffled among their places in the opponent's hand and the deck (deal_of's
    arguments): the same moves are legal, and that player saw the same at every one of
    them (checked)."""
    g = played(deal, moves)
    me = g.to_move
    hidden = {str(c) for c in g.observation(me).unknown_cards}
    cards = deal["hands"][1 - me] + deal["deck"]
    at = [i for i, c in enumerate(cards) if c in hidden]
    swapped = [cards[i] for i in at]
    random.Random(seed).shuffle(swapped)
    for i, c in zip(at, swapped):
        cards[i] = c
    n = len(deal["hands"][1 - me])
    other = dict(deal, deck=cards[n:])
    other["hands"] = tuple(cards[:n] if p != me else deal["hands"][p] for p in (0, 1))
    a, b = played(deal, []), played(other, [])
    for m in moves:
        assert a.observation(me) == b.observation(me)
        a.play(m)
        b.play(m)
    assert a.observation(me) == b.observation(me)
    return other


def analyses(g):
    """Every analysis of the decision of `g`, cheaply: name -> a call that analyses it."""
    from cuttle.review import judge
    return {"analyse": lambda: cuttle.analyse(g, rollouts=8, seed=1, threads=1),
            "analyse_search": lambda: cuttle.analyse_search(g, "ismcts:10", seed=1,
                                                            threads=1),
            "judge": lambda: judge(g, g.legal_moves[0], "rollouts:8", seed=1, threads=1),
            "judge ismcts": lambda: judge(g, g.legal_moves[0], "ismcts:10", seed=1,
                                          threads=1)}
