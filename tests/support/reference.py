"""Pure-Python reference engine for Cuttle.

Written independently from the rulebook (``docs/rules.md``), the public API
contract (the documented behaviour of ``cuttle.Rules``, ``Game`` and ``Move``) and
the project's decisions (``docs/rules-decisions.md``), so
that it can be cross-checked move by move against the fast core (differential
testing).  Slow and obvious on purpose: plain lists, sets and dicts, one function
per rule, comments citing the section of docs/rules.md ("R§n") or the decisions doc
("D:<topic>" / "D#n" for the numbered list of silent points).

Only the standard library is used.  Nothing here imports the core.
"""

from itertools import combinations

__all__ = ["ReferenceGame", "card_index", "card_text", "deal", "PRESETS", "FLAGS"]

# ---------------------------------------------------------------------------
# Cards (R§1, D:Notation)
# ---------------------------------------------------------------------------

RANKS = "A23456789TJQK"  # A=1 ... T=10, J=11, Q=12, K=13
SUITS = "CDHS"  # clubs < diamonds < hearts < spades
JOKER = 52

ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN = range(1, 11)
JACK, QUEEN, KING = 11, 12, 13

MASK64 = (1 << 64) - 1


def card_index(text):
    """Natural index of a card text: (rank-1)*4 + suit; the joker "JK" is 52.

    "10" is accepted for T; case-insensitive.  ValueError for anything else.
    """
    if not isinstance(text, str):
        raise ValueError(f"not a card: {text!r}")
    t = text.strip().upper()
    if t == "JK":
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return RANKS.index(t[0]) * 4 + SUITS.index(t[1])


def card_text(index):
    """Card text of a natural index (0..51, 52 = "JK")."""
    if index == JOKER:
        return "JK"
    if not isinstance(index, int) or not 0 <= index < 52:
        raise ValueError(f"not a card index: {index!r}")
    return RANKS[index // 4] + SUITS[index % 4]


def rank(index):
    """Rank 1..13 of a card index; the joker has rank 0 (no rank)."""
    if index == JOKER:
        return 0
    return index // 4 + 1


# ---------------------------------------------------------------------------
# Flags and presets (docs/rules.md, R§5 flag table)
# ---------------------------------------------------------------------------

FLAGS = (
    "king_goals", "hand_limit", "hand_limit_mode", "five", "seven", "nine",
    "nine_targets_points", "targets_own_side", "three_takes_threes",
    "strict_oneoffs", "four", "queens_protect_queens", "queen_stops_scuttles",
    "one_queen_each", "eight_breaks_glasses", "ten_blocks_scuttle",
    "ten_discards", "strict_scuttle", "joker", "open_hands",
    "reveal_on_empty_deck", "sudden_death", "deal",
)

# The values of the flags that name one (R§5 flag table), in the table's order.
CHOICES = {
    "hand_limit_mode": ("discard", "no_draw"),
    "five": ("draw2", "discard1_draw3"),
    "seven": ("top1", "top2"),
    "nine": ("return", "freeze", "topdeck"),
    "four": ("choice", "random", "draw"),
}

PRESETS = {
    "classic": {
        "king_goals": (21, 14, 10, 7, 5),
        "hand_limit": None,
        "hand_limit_mode": "discard",
        "five": "draw2",
        "seven": "top1",
        "nine": "return",
        "nine_targets_points": False,
        "targets_own_side": True,
        "three_takes_threes": True,
        "strict_oneoffs": False,
        "four": "choice",
        "queens_protect_queens": False,
        "queen_stops_scuttles": False,
        "one_queen_each": False,
        "eight_breaks_glasses": False,
        "ten_blocks_scuttle": False,
        "ten_discards": False,
        "strict_scuttle": False,
        "joker": False,
        "open_hands": False,
        "reveal_on_empty_deck": False,
        "sudden_death": False,
        "deal": (5, 6),
    },
    "cuttle.cards": {
        "king_goals": (21, 14, 10, 5, 0),
        "hand_limit": 8,
        "hand_limit_mode": "discard",
        "five": "discard1_draw3",
        "seven": "top2",
        "nine": "freeze",
        "nine_targets_points": True,
        "targets_own_side": False,
        "three_takes_threes": False,
        "strict_oneoffs": True,
        "four": "choice",
        "queens_protect_queens": True,
        "queen_stops_scuttles": False,
        "one_queen_each": False,
        "eight_breaks_glasses": False,
        "ten_blocks_scuttle": False,
        "ten_discards": False,
        "strict_scuttle": False,
        "joker": False,
        "open_hands": False,
        "reveal_on_empty_deck": True,
        "sudden_death": False,
        "deal": (5, 6),
    },
}


# ---------------------------------------------------------------------------
# The random stream (D: "The game's random stream"): xoshiro256**
# ---------------------------------------------------------------------------

def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & MASK64


class _Xoshiro256ss:
    """xoshiro256** with explicit 64-bit masking."""

    def __init__(self, state):
        if len(state) != 4:
            raise ValueError("rng_state must hold 4 64-bit integers")
        self.s = [int(x) & MASK64 for x in state]

    def next(self):
        s = self.s
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def rand_below(self, n):
        # D: rand_below(n) = (next() * n) >> 64, a 128-bit product.
        return (self.next() * n) >> 64

    def state(self):
        return tuple(self.s)


def _splitmix64(x):
    """(new state, output) of splitmix64 (D:random stream)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def stream_state(seed, index=0):
    """The four words of game `index`'s stream of a run seeded `seed`: stream 2*index
    (D:random stream)."""
    x, base = _splitmix64(seed & MASK64)
    x = base ^ ((2 * index * 0xD1B54A32D192ED03) & MASK64)
    words = []
    for _ in range(4):
        x, z = _splitmix64(x)
        words.append(z)
    return tuple(words)


def deal(rules, seed, index=0):
    """Game `index` of a run seeded `seed`, dealt (D#20, D:random stream): the cards
    shuffled by Fisher-Yates from the last position down, P0 the first a, P1 the next
    b, the rest the deck (top first)."""
    rng = _Xoshiro256ss(stream_state(seed, index))
    a, b = rules["deal"]
    cards = list(range(53 if rules["joker"] else 52))
    for j in range(len(cards) - 1, 0, -1):
        k = rng.rand_below(j + 1)
        cards[j], cards[k] = cards[k], cards[j]
    return ReferenceGame(rules, hands=[[card_text(c) for c in cards[:a]],
                                      [card_text(c) for c in cards[a:a + b]]],
                         points=[[], []], permanents=[[], []], scrap=[],
                         deck=[card_text(c) for c in cards[a + b:]], rng_state=rng.state())


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------

PHASES = ("main", "counter", "three", "four", "five", "seven", "discard",
          "block", "ten", "over")


class ReferenceGame:
    """A Cuttle game from a main-phase position; see module docstring."""

    # ----------------------------------------------------------- construction

    def __init__(self, rules, *, hands, points, permanents, scrap, deck,
                 turn=0, rng_state=(1, 2, 3, 4)):
        missing = [k for k in FLAGS if k not in rules]
        if missing:
            raise ValueError(f"rules dict lacks flags: {missing}")
        unknown = [k for k in rules if k not in FLAGS]
        if unknown:     # (a flag this engine does not play must not pass unseen)
            raise ValueError(f"rules dict has flags this engine does not know: {unknown}")
        self.rules = dict(rules)
        self._check_flag_values()
        if turn not in (0, 1):
            raise ValueError(f"turn must be 0 or 1, not {turn!r}")

        self.hands = [[], []]       # card indices
        self.pts = {}               # point card -> {"owner": p, "jacks": [bottom..top]}
        self.permanents = [[], []]  # Kings, Queens, glasses-8s
        self.scrap = []
        self.deck = []              # top first
        self.revealed = []          # the 7's revealed cards, top first (R§4b)
        self.stack = []             # announced cards, oldest first (R§4b)
        self.pending = None         # what the stack's bottom card does (dict)
        self.phase = "main"
        self.turn = turn
        self.turn_no = 0            # counts turns since construction
        self.winner = None
        self.over = False
        self.end_reason = None
        self.passes = 0             # consecutive passes (R§2)
        self.frozen = {}            # card -> (receiver, turn_no of the frozen turn)
        self.last_turn = None       # sudden death: game drawn at the end of this turn_no
        self.rng = _Xoshiro256ss(rng_state)
        self.history = []
        self._done = False          # set by a move that completes the turn's action

        seen = []
        for p in (0, 1):
            for t in hands[p]:
                c = card_index(t)
                self.hands[p].append(c)
                seen.append(c)
            for t in points[p]:
                base, jacks = self._parse_point(t)
                if not ACE <= rank(base) <= TEN:
                    raise ValueError(f"not a point card: {t!r}")
                for j in jacks:
                    if rank(j) != JACK:
                        raise ValueError(f"not a Jack in a stack: {t!r}")
                # R§1: owner = controller XOR (number of Jacks mod 2)
                self.pts[base] = {"owner": p ^ (len(jacks) % 2), "jacks": list(jacks)}
                seen.append(base)
                seen.extend(jacks)
            for t in permanents[p]:
                c = card_index(t)
                if rank(c) not in (EIGHT, QUEEN, KING):
                    raise ValueError(f"not a permanent: {t!r}")
                self.permanents[p].append(c)
                seen.append(c)
        for t in scrap:
            c = card_index(t)
            self.scrap.append(c)
            seen.append(c)
        for t in deck:
            c = card_index(t)
            self.deck.append(c)
            seen.append(c)

        # R§1: every card in exactly one place: 52 cards (53 with the joker).
        full = set(range(53 if self.rules["joker"] else 52))
        if len(seen) != len(set(seen)):
            dups = sorted({card_text(c) for c in seen if seen.count(c) > 1})
            raise ValueError(f"duplicate cards: {dups}")
        if set(seen) != full:
            extra = sorted(card_text(c) for c in set(seen) - full)
            lost = sorted(card_text(c) for c in full - set(seen))
            raise ValueError(f"card set wrong: unknown {extra}, missing {lost}")

        # R§4b: sudden death with an empty deck at construction: the current
        # and the next turn are the last.
        if self.rules["sudden_death"] and not self.deck:
            self.last_turn = self.turn_no + 1

        # R§4b: a position given with a player already at their goal is over at
        # once; with both, it is refused.
        r0, r1 = self._reached(0), self._reached(1)
        if r0 and r1:
            raise ValueError("both players already reach their goal")
        if r0 or r1:
            self._end_game(0 if r0 else 1, "goal")

    def _check_flag_values(self):
        R = self.rules
        kg = R["king_goals"]
        if not (isinstance(kg, (tuple, list)) and len(kg) == 5):
            raise ValueError("king_goals must be a tuple of 5 ints")
        R["king_goals"] = tuple(int(x) for x in kg)
        for k, vals in CHOICES.items():
            if R[k] not in vals:
                raise ValueError(f"flag {k}={R[k]!r}: choose from {vals}")
        if R["hand_limit"] is not None and (not isinstance(R["hand_limit"], int) or R["hand_limit"] < 0):
            raise ValueError("hand_limit must be None or a non-negative int")
        # D#20: 1 to 8 cards to each player.
        if not (isinstance(R["deal"], (tuple, list)) and len(R["deal"]) == 2 and
                all(isinstance(x, int) and 1 <= x <= 8 for x in R["deal"])):
            raise ValueError("deal must be two ints from 1 to 8")
        R["deal"] = tuple(R["deal"])

    @staticmethod
    def _parse_point(text):
        """'TH' or 'TH[JC,JD]' -> (base index, [jack indices bottom..top])."""
        t = text.strip()
        if "[" in t:
            if not t.endswith("]"):
                raise ValueError(f"bad point card text: {text!r}")
            base, inner = t[:-1].split("[", 1)
            jacks = [card_index(x) for x in inner.split(",") if x.strip()]
        else:
            base, jacks = t, []
        return card_index(base), jacks

    # ------------------------------------------------------------ basic views

    @staticmethod
    def _opp(p):
        return 1 - p

    def _controller(self, pc):
        """R§1: controller = owner XOR (number of Jacks mod 2)."""
        d = self.pts[pc]
        return d["owner"] ^ (len(d["jacks"]) % 2)

    def _points_of(self, p):
        """Point cards controlled by p, ascending."""
        return sorted(pc for pc in self.pts if self._controller(pc) == p)

    def _queens(self, p):
        return [c for c in self.permanents[p] if rank(c) == QUEEN]

    def _kings(self, p):
        return [c for c in self.permanents[p] if rank(c) == KING]

    def score(self, p):
        """R§3: point cards are worth their rank; Jacks are worth nothing."""
        return sum(rank(pc) for pc in self._points_of(p))

    def goal(self, p):
        """R§3 King: goal by number of Kings controlled."""
        return self.rules["king_goals"][min(len(self._kings(p)), 4)]

    def _reached(self, p):
        # D#12: at least the goal (a goal of 0 is reached with no points).
        return self.score(p) >= self.goal(p)

    @property
    def to_move(self):
        """The player who must decide now (D: Phases table)."""
        if self.over:
            return None
        ph = self.phase
        if ph in ("main", "three", "five", "seven", "discard"):
            return self.turn
        if ph in ("four", "block", "ten"):
            return self._opp(self.turn)
        if ph == "counter":
            # The responder is the opponent of whoever added the last card; the
            # one-off (stack[0]) was added by the player whose turn it is and
            # each 2 alternates.
            return self._opp(self.turn) if len(self.stack) % 2 == 1 else self.turn
        raise AssertionError(ph)

    # ----------------------------------------------------------------- freeze

    def _is_frozen(self, p, c):
        """D#3: a frozen card cannot be played during its receiver's next turn."""
        f = self.frozen.get(c)
        return (f is not None and f[0] == p and f[1] == self.turn_no
                and c in self.hands[p])

    def _remove_from_hand(self, p, c):
        self.hands[p].remove(c)
        # A card that leaves the hand loses its freeze (it is another card's
        # business if it ever comes back by other means).
        self.frozen.pop(c, None)

    # ------------------------------------------------------- targeting rules

    def _protected(self, side, c):
        """R§3 Queen / R§4b: is card c of `side` protected from the *other*
        player's targeted effects (2, 9, Jack, glasses-breaking 8)?"""
        qs = self._queens(side)
        if not qs:
            return False
        if rank(c) == QUEEN and c in self.permanents[side]:
            if not self.rules["queens_protect_queens"]:
                # classic: a Queen protects neither itself nor other Queens.
                return False
            # queens_protect_queens: a Queen is protected by another Queen.
            return len(qs) >= 2
        return True

    def _beats(self, c, target):
        """R§1 / R§5 strict scuttle."""
        if self.rules["strict_scuttle"]:
            return rank(c) > rank(target)
        return c > target

    def _top_jacks_of(self, side):
        """The top Jacks of the stacks on point cards controlled by `side`."""
        out = []
        for pc in self._points_of(side):
            jk = self.pts[pc]["jacks"]
            if jk:
                out.append(jk[-1])
        return out

    def _target_sides(self, p):
        """R§4 table / flag `targets_own_side`: which sides a 2 or 9 may hit."""
        if self.rules["targets_own_side"]:
            return [self._opp(p), p]
        return [self._opp(p)]

    def _two_targets(self, p):
        """R§4: the 2 scraps a permanent or the top Jack of a stack."""
        out = set()
        for s in self._target_sides(p):
            for c in self.permanents[s] + self._top_jacks_of(s):
                if s == p or not self._protected(s, c):
                    out.add(c)
        return sorted(out)

    def _nine_targets(self, p):
        """R§4: the 9 hits permanents and top Jacks (and point cards with
        nine_targets_points)."""
        out = set()
        for s in self._target_sides(p):
            cand = self.permanents[s] + self._top_jacks_of(s)
            if self.rules["nine_targets_points"]:
                cand = cand + self._points_of(s)
            for c in cand:
                if s == p or not self._protected(s, c):
                    out.add(c)
        return sorted(out)

    def _glasses_targets(self, p):
        """R§5 eight breaks glasses / D#15: an opposing glasses-8 only."""
        o = self._opp(p)
        return sorted(c for c in self.permanents[o]
                      if rank(c) == EIGHT and not self._protected(o, c))

    def _jack_targets(self, p, from_seven):
        """R§3 Jack: an opponent's point card not protected by their Queen.
        D#6: a classic (top1) 7's Jack with no such target may go on one of
        the player's own point cards."""
        o = self._opp(p)
        t = [pc for pc in self._points_of(o) if not self._protected(o, pc)]
        if not t and from_seven and self.rules["seven"] == "top1":
            t = self._points_of(p)
        return t

    def _takeable(self):
        """R§4 3: cards of the scrap the 3 may take."""
        if self.rules["three_takes_threes"]:
            return sorted(self.scrap)
        return sorted(c for c in self.scrap if rank(c) != THREE)

    # ------------------------------------------------------- move generation

    def _card_plays(self, p, c, from_seven):
        """Every main-phase play of card c by p (c from hand, or a card a 7
        revealed).  Frozen cards are filtered by the caller."""
        R = self.rules
        o = self._opp(p)
        t = card_text(c)
        r = rank(c)
        out = []
        if c == JOKER:
            # D#17: the Joker can only be played as a one-off; always legal (D#16).
            out.append("oneoff JK")
            return out
        if ACE <= r <= TEN:
            # R§3 points
            out.append(f"points {t}")
            # R§3 scuttle: an opponent's point card that c beats.
            # R§5 queen stops scuttles: a player with a Queen cannot be scuttled.
            if not (R["queen_stops_scuttles"] and self._queens(o)):
                for pc in self._points_of(o):
                    if self._beats(c, pc):
                        out.append(f"scuttle {t} {card_text(pc)}")
        if r == KING:
            out.append(f"royal {t}")
        if r == QUEEN:
            # R§5 one queen each: at most one Queen controlled.
            if not (R["one_queen_each"] and self._queens(p)):
                out.append(f"royal {t}")
        if r == EIGHT:
            out.append(f"glasses {t}")
        if r == JACK:
            for pc in self._jack_targets(p, from_seven):
                out.append(f"jack {t} {card_text(pc)}")
        out.extend(self._oneoff_plays(p, c, from_seven))
        return out

    def _oneoff_plays(self, p, c, from_seven):
        """R§4 table + D#19 strict one-offs."""
        R = self.rules
        o = self._opp(p)
        t = card_text(c)
        r = rank(c)
        strict = R["strict_oneoffs"]
        # R§4b: for a revealed card the unchosen revealed card counts as deck.
        # AMBIGUOUS: a revealed card is judged in the state before the play:
        # the 7 is still on the stack, not in the scrap (its 2s went to the
        # scrap when its chain ended; only the deck count is adjusted, as R§4b
        # says), so a strict revealed 3 needs a takeable card already in the
        # scrap, the 7's 2s included.
        # Reconciled (rules audit): R§4b, for all presets, "a revealed 5 that was
        # the last card may be played as a one-off and draws nothing", and R§4's
        # cuttle.cards specifics name the 7 alone as the card that cannot be a
        # one-off from the last card.  So with strict_oneoffs a revealed 5 is
        # always playable; a revealed 7 or draw-four 4 still needs a deck.
        deck_len = len(self.deck) + (len(self.revealed) - 1 if from_seven else 0)
        plain = f"oneoff {t}"
        if r == ACE:
            return [plain]
        if r == TWO:
            return [f"oneoff {t} {card_text(x)}" for x in self._two_targets(p)]
        if r == THREE:
            if not strict or self._takeable():
                return [plain]
            return []
        if r == FOUR:
            if not strict:
                return [plain]
            if R["four"] == "draw":
                return [plain] if deck_len > 0 else []
            return [plain] if self.hands[o] else []
        if r == FIVE:
            return [plain] if (not strict or deck_len > 0 or from_seven) else []
        if r == SIX:
            return [plain]
        if r == SEVEN:
            # R§4: no 7 one-off from the last card (strict).
            return [plain] if (not strict or deck_len > 0) else []
        if r == EIGHT:
            if R["eight_breaks_glasses"]:
                return [f"oneoff {t} {card_text(x)}" for x in self._glasses_targets(p)]
            return []
        if r == NINE:
            return [f"oneoff {t} {card_text(x)}" for x in self._nine_targets(p)]
        if r == TEN:
            if R["ten_discards"] and (not strict or self.hands[o]):
                return [plain]
            return []
        return []

    def _main_moves(self):
        """R§2 turn actions."""
        R = self.rules
        p = self.turn
        moves = []
        if self.deck:
            limit = R["hand_limit"]
            # D#2: no-draw hand limit: draw illegal at the limit or above.
            if not (limit is not None and R["hand_limit_mode"] == "no_draw"
                    and len(self.hands[p]) >= limit):
                moves.append("draw")
        else:
            moves.append("pass")  # R§2: pass only with an empty deck
        for c in sorted(self.hands[p]):
            if self._is_frozen(p, c):
                continue
            moves.extend(self._card_plays(p, c, from_seven=False))
        if not moves:
            # D#2: a player with no legal move at all may pass.
            moves.append("pass")
        return moves

    def _counter_moves(self):
        """R§4 counters / D#9: 2s from hand (a frozen 2 included: a freeze binds
        every play but a counter), not against a Queen."""
        resp = self.to_move
        other = self._opp(resp)
        out = []
        if not self._queens(other):
            for c in sorted(self.hands[resp]):
                if rank(c) == TWO:
                    out.append(f"counter {card_text(c)}")
        out.append("resolve")  # R§4b: the counter window always opens
        return out

    def _seven_moves(self):
        """D#7: plays of a revealed card; discard when none is playable."""
        p = self.turn
        out = []
        for c in self.revealed:
            out.extend(self._card_plays(p, c, from_seven=True))
        if not out:
            out = [f"discard {card_text(c)}" for c in sorted(self.revealed)]
        return out

    def legal_moves(self):
        if self.over:
            return []
        ph = self.phase
        if ph == "main":
            moves = self._main_moves()
        elif ph == "counter":
            moves = self._counter_moves()
        elif ph == "three":
            moves = [f"take {card_text(c)}" for c in self._takeable()]
        elif ph == "four":
            v = self._opp(self.turn)
            n = min(2, len(self.hands[v]))
            moves = ["discard " + " ".join(card_text(c) for c in combo)
                     for combo in combinations(sorted(self.hands[v]), n)]
        elif ph == "five":
            moves = [f"discard {card_text(c)}" for c in sorted(self.hands[self.turn])]
        elif ph == "seven":
            moves = self._seven_moves()
        elif ph == "discard":
            moves = [f"discard {card_text(c)}" for c in sorted(self.hands[self.turn])]
        elif ph == "block":
            v = self._opp(self.turn)
            moves = [f"block {card_text(c)}" for c in sorted(self.hands[v])
                     if rank(c) == TEN and not self._is_frozen(v, c)]
            moves.append("resolve")  # R§4b: the block window always opens
        elif ph == "ten":
            v = self._opp(self.turn)
            moves = [f"discard {card_text(c)}" for c in sorted(self.hands[v])]
        else:
            raise AssertionError(ph)
        # dedupe, keep order
        seen = set()
        out = []
        for m in moves:
            if m not in seen:
                seen.add(m)
                out.append(m)
        return out

    # ------------------------------------------------------------------ moves

    @staticmethod
    def canonical(move):
        """Canonical text of a move text (D: Notation)."""
        if not isinstance(move, str):
            raise ValueError(f"not a move text: {move!r}")
        toks = move.split()
        if not toks:
            raise ValueError("empty move")
        verb = toks[0].lower()
        cards = [card_index(x) for x in toks[1:]]
        if verb == "discard":
            cards = sorted(cards)
        return " ".join([verb] + [card_text(c) for c in cards])

    def play(self, move):
        try:
            m = self.canonical(move)
        except ValueError as e:
            raise ValueError(f"malformed move {move!r}: {e}") from None
        legal = self.legal_moves()
        if m not in legal:
            raise ValueError(f"illegal move {move!r} in phase {self.phase}")
        mover = self.to_move
        toks = m.split()
        verb = toks[0]
        cards = [card_index(x) for x in toks[1:]]
        self._done = False
        # R§4b passes: every move other than pass resets the count.
        if verb == "pass":
            self.passes += 1
        else:
            self.passes = 0
        handler = getattr(self, "_apply_" + self.phase)
        handler(verb, cards)
        self.history.append(m)
        self._after_move(mover)

    # --- main phase

    def _apply_main(self, verb, cards):
        p = self.turn
        if verb == "draw":
            self.hands[p].append(self.deck.pop(0))
            self._done = True
            return
        if verb == "pass":
            self._done = True
            return
        c = cards[0]
        tgt = cards[1] if len(cards) > 1 else None
        self._remove_from_hand(p, c)
        self._do_play(p, verb, c, tgt)

    def _do_play(self, p, verb, c, tgt):
        """Put card c (already out of its hand / revealed) into play."""
        if verb == "points":
            self.pts[c] = {"owner": p, "jacks": []}
            self._done = True
        elif verb == "scuttle":
            if self.rules["ten_blocks_scuttle"]:
                # R§5 ten blocks scuttle: the scuttling card waits on the stack
                # for the victim's answer (R§4b stack).
                self.stack = [c]
                self.pending = {"kind": "scuttle", "card": c, "target": tgt, "player": p}
                self.phase = "block"
            else:
                self._scuttle(c, tgt)
                self._done = True
        elif verb in ("royal", "glasses"):
            self.permanents[p].append(c)
            self._done = True
        elif verb == "jack":
            # R§1: control flips when a Jack is put on the card.
            self.pts[tgt]["jacks"].append(c)
            self._done = True
        elif verb == "oneoff":
            # R§4: the one-off is announced on the stack; counter window opens.
            self.stack = [c]
            self.pending = {"kind": "oneoff", "card": c, "target": tgt, "player": p}
            self.phase = "counter"
        else:
            raise AssertionError(verb)

    def _scuttle(self, c, tgt):
        """R§3 scuttle: both cards and every Jack on the target to the scrap."""
        self.scrap.append(c)
        self._scrap_point_card(tgt)

    def _scrap_point_card(self, pc):
        d = self.pts.pop(pc)
        self.scrap.extend(d["jacks"])
        self.scrap.append(pc)

    def _finish_stack(self):
        """R§4b: stack cards go to the scrap when the action is complete."""
        self.scrap.extend(self.stack)
        self.stack = []
        self.pending = None
        self._done = True

    # --- counter window

    def _apply_counter(self, verb, cards):
        if verb == "counter":
            resp = self.to_move
            c = cards[0]
            self._remove_from_hand(resp, c)
            self.stack.append(c)
            return
        # resolve: R§4: odd number of 2s -> fizzle; even -> effect.
        twos = len(self.stack) - 1
        if twos % 2 == 1:
            self._finish_stack()
            return
        # R§4b: the chain's 2s reach the scrap as the chain ends, before the effect;
        # the one-off itself waits on the stack until its action is over.
        self.scrap.extend(self.stack[1:])
        self.stack = self.stack[:1]
        self._resolve_oneoff()

    def _resolve_oneoff(self):
        R = self.rules
        c = self.pending["card"]
        tgt = self.pending["target"]
        p = self.pending["player"]
        o = self._opp(p)
        r = rank(c)
        if c == JOKER:
            self._effect_joker()
        elif r == ACE:
            self._effect_ace()
        elif r == TWO:
            self._effect_two(tgt)
        elif r == THREE:
            # R§4b: the 3's choice phase opens only if there is a card to take.
            if self._takeable():
                self.phase = "three"
                return
        elif r == FOUR:
            if R["four"] == "choice":
                # R§4b: the 4's phase opens only if the victim holds a card.
                if self.hands[o]:
                    self.phase = "four"
                    return
            elif R["four"] == "random":
                self._effect_random_four(o)
            else:
                self._effect_draw_four(o)
        elif r == FIVE:
            if R["five"] == "draw2":
                self._draw(p, 2)
            else:
                # R§4b: the cuttle.cards 5 asks for a discard only if its
                # player holds a card; then draws min(3, deck).
                if self.hands[p]:
                    self.phase = "five"
                    return
                self._draw(p, 3)
        elif r == SIX:
            self._effect_six()
        elif r == SEVEN:
            self._start_seven()
            return
        elif r == EIGHT:
            self._effect_break_glasses(tgt)
        elif r == NINE:
            self._effect_nine(p, tgt)
        elif r == TEN:
            # D#16 ten discards: the victim discards one card of their choice.
            if self.hands[o]:
                self.phase = "ten"
                return
        else:
            raise AssertionError(card_text(c))
        self._finish_stack()

    def _draw(self, p, n):
        """Draw min(n, deck) cards."""
        for _ in range(min(n, len(self.deck))):
            self.hands[p].append(self.deck.pop(0))

    # --- one-off effects, one function per rule

    def _effect_ace(self):
        """R§4 A: scrap every point card and their Jacks."""
        for pc in sorted(self.pts):
            self._scrap_point_card(pc)

    def _effect_two(self, tgt):
        """R§4 2 / D#13: scrap a permanent, or a top Jack (its card flips back)."""
        for s in (0, 1):
            if tgt in self.permanents[s]:
                self.permanents[s].remove(tgt)
                self.scrap.append(tgt)
                return
        for pc, d in self.pts.items():
            if d["jacks"] and d["jacks"][-1] == tgt:
                d["jacks"].pop()
                self.scrap.append(tgt)
                return
        raise AssertionError("2's target vanished")

    def _effect_random_four(self, v):
        """R§5 random four / D random stream."""
        remaining = sorted(self.hands[v])
        for _ in range(min(2, len(remaining))):
            i = self.rng.rand_below(len(remaining))
            c = remaining.pop(i)
            self._remove_from_hand(v, c)
            self.scrap.append(c)

    def _effect_draw_four(self, v):
        """R§4b draw four: the victim draws min(2, deck)."""
        self._draw(v, 2)

    def _effect_six(self):
        """R§4 6 / D#14: scrap every permanent and every Jack; each point card
        returns to its original owner."""
        for s in (0, 1):
            self.scrap.extend(self.permanents[s])
            self.permanents[s] = []
        for pc in sorted(self.pts):
            self.scrap.extend(self.pts[pc]["jacks"])
            self.pts[pc]["jacks"] = []

    def _effect_break_glasses(self, tgt):
        """R§5 eight breaks glasses: the target glasses-8 goes to the scrap (the
        one-off 8 goes with the stack)."""
        for s in (0, 1):
            if tgt in self.permanents[s]:
                self.permanents[s].remove(tgt)
                self.scrap.append(tgt)
                return
        raise AssertionError("glasses target vanished")

    def _effect_nine(self, p, tgt):
        """R§4 9 / D#4 / D#5: return the target to its controller's hand
        (freezing it with nine="freeze") or put it on top of the deck."""
        R = self.rules
        receiver = None
        for s in (0, 1):
            if tgt in self.permanents[s]:
                self.permanents[s].remove(tgt)
                receiver = s
                break
        if receiver is None and tgt in self.pts:
            # a point card: its Jacks are scrapped; it goes to its controller
            receiver = self._controller(tgt)
            d = self.pts.pop(tgt)
            self.scrap.extend(d["jacks"])
        if receiver is None:
            for pc, d in self.pts.items():
                if d["jacks"] and d["jacks"][-1] == tgt:
                    # a top Jack: to the player controlling its point card,
                    # which then flips back.
                    receiver = self._controller(pc)
                    d["jacks"].pop()
                    break
        if receiver is None:
            raise AssertionError("9's target vanished")
        if R["nine"] == "topdeck":
            self.deck.insert(0, tgt)
            return
        self.hands[receiver].append(tgt)
        if R["nine"] == "freeze":
            # D#3: frozen during the receiver's next turn.  If the receiver is
            # the player whose turn it is, that is the turn after the next.
            if receiver == self.turn:
                self.frozen[tgt] = (receiver, self.turn_no + 2)
            else:
                self.frozen[tgt] = (receiver, self.turn_no + 1)

    def _effect_joker(self):
        """R§5 joker: swap the two hands; every freeze ends."""
        self.hands[0], self.hands[1] = self.hands[1], self.hands[0]
        self.frozen.clear()

    # --- the 7 (R§4 table, R§4b, D#6-#8)

    def _start_seven(self):
        n = 1 if self.rules["seven"] == "top1" else 2
        if not self.deck:
            # decision: a 7 with an empty deck does nothing.
            self._finish_stack()
            return
        self.revealed = self.deck[:n]
        del self.deck[:n]
        p = self.turn
        playable = any(self._card_plays(p, c, from_seven=True) for c in self.revealed)
        if not playable and self.rules["seven"] == "top1":
            # R§4b: a classic 7 whose card has no legal play scraps it with no
            # decision (the 7 and its 2s go to the scrap at that moment).
            self.scrap.extend(self.revealed)
            self.revealed = []
            self._finish_stack()
            return
        self.phase = "seven"

    def _apply_seven(self, verb, cards):
        p = self.turn
        c = cards[0]
        tgt = cards[1] if len(cards) > 1 else None
        self.revealed.remove(c)
        # D#7: the one not played goes back on top.
        self.deck[0:0] = self.revealed
        self.revealed = []
        # R§4b: the 7 and its 2s go to the scrap when the revealed card is
        # played or scrapped.
        self.scrap.extend(self.stack)
        self.stack = []
        self.pending = None
        if verb == "discard":
            self.scrap.append(c)
            self._done = True
            return
        # D#8: a one-off played from a 7 opens a fresh counter window.
        self._do_play(p, verb, c, tgt)

    # --- choice phases

    def _apply_three(self, verb, cards):
        c = cards[0]
        self.scrap.remove(c)
        self.hands[self.pending["player"]].append(c)
        self._finish_stack()

    def _apply_four(self, verb, cards):
        v = self._opp(self.turn)
        for c in cards:
            self._remove_from_hand(v, c)
            self.scrap.append(c)
        self._finish_stack()

    def _apply_five(self, verb, cards):
        p = self.turn
        self._remove_from_hand(p, cards[0])
        self.scrap.append(cards[0])
        self._draw(p, 3)
        self._finish_stack()

    def _apply_ten(self, verb, cards):
        v = self._opp(self.turn)
        self._remove_from_hand(v, cards[0])
        self.scrap.append(cards[0])
        self._finish_stack()

    def _apply_block(self, verb, cards):
        sc = self.pending["card"]
        tgt = self.pending["target"]
        if verb == "block":
            # R§5: the scuttling card and the 10 go to the scrap; target stays.
            v = self._opp(self.turn)
            ten = cards[0]
            self._remove_from_hand(v, ten)
            self.scrap.append(sc)
            self.scrap.append(ten)
        else:
            self.scrap.append(sc)
            self._scrap_point_card(tgt)
        self.stack = []
        self.pending = None
        self._done = True

    def _apply_discard(self, verb, cards):
        """D#1: hand-limit discards, one card per move."""
        p = self.turn
        self._remove_from_hand(p, cards[0])
        self.scrap.append(cards[0])
        self._done = True

    # --- after every move

    def _after_move(self, mover):
        R = self.rules
        # D#11 sudden death: the deck becoming empty during this turn.
        # Reconciled with the core (decisions doc #11): "empty" is judged at the end
        # of each move, and revealed cards have left the deck (R§4b "Revealed cards
        # leave the deck while they are revealed"; "the countdown is never cancelled,
        # even when ... a 7's unchosen card" goes back): a top2 7 that reveals the last
        # two cards starts the countdown.
        if R["sudden_death"] and self.last_turn is None and not self.deck:
            self.last_turn = self.turn_no + 2
        # R§2 / D#12: win check after every move, for both players; the mover
        # wins a tie.
        r0, r1 = self._reached(0), self._reached(1)
        if r0 and r1:
            self._end_game(mover, "goal")
            return
        if r0 or r1:
            self._end_game(0 if r0 else 1, "goal")
            return
        # R§4b / D#10: the third consecutive pass ends the game as a draw.
        if self.passes >= 3:
            self._end_game(None, "passes")
            return
        if self._done:
            self._complete_action()

    def _complete_action(self):
        """R§4b hand limit: once the whole action is complete the player whose
        turn it is discards down to the limit (one card per move), then the
        turn passes."""
        R = self.rules
        p = self.turn
        limit = R["hand_limit"]
        if (limit is not None and R["hand_limit_mode"] == "discard"
                and len(self.hands[p]) > limit):
            self.phase = "discard"
            return
        self._end_turn()

    def _end_turn(self):
        # D#3: freezes of this turn end with it.
        for c in [c for c, (_, t) in self.frozen.items() if t <= self.turn_no]:
            del self.frozen[c]
        # D#11: sudden death ends the game at the end of turn t+2.
        if self.last_turn is not None and self.turn_no >= self.last_turn:
            self._end_game(None, "sudden_death")
            return
        self.turn = self._opp(self.turn)
        self.turn_no += 1
        self.phase = "main"

    def _end_game(self, winner, reason):
        self.over = True
        self.winner = winner
        self.end_reason = reason
        self.phase = "over"

    # --------------------------------------------------------------- snapshot

    def _point_text(self, pc):
        jk = self.pts[pc]["jacks"]
        if not jk:
            return card_text(pc)
        return card_text(pc) + "[" + ",".join(card_text(j) for j in jk) + "]"

    def frozen_cards(self, p):
        """Cards of p's hand that cannot be played during the current turn."""
        # AMBIGUOUS: a card is reported frozen only while its freeze applies to
        # the current turn (its receiver's next turn), not between the 9's
        # resolution and that turn.  Reconciled with the core: none once the game is
        # over (there is no current turn).
        if self.phase == "over":
            return []
        return sorted(c for c in self.hands[p] if self._is_frozen(p, c))

    def snapshot(self):
        def texts(cs):
            return [card_text(c) for c in sorted(cs)]
        return {
            "phase": self.phase,
            "turn": self.turn,
            "to_move": self.to_move,
            "winner": self.winner,
            "over": self.over,
            "end_reason": self.end_reason,
            "hands": (texts(self.hands[0]), texts(self.hands[1])),
            "points": tuple([self._point_text(pc) for pc in self._points_of(p)] for p in (0, 1)),
            "permanents": (texts(self.permanents[0]), texts(self.permanents[1])),
            "scrap": texts(self.scrap),
            "deck": [card_text(c) for c in self.deck],
            "revealed": [card_text(c) for c in self.revealed],
            "stack": [card_text(c) for c in self.stack],
            "scores": (self.score(0), self.score(1)),
            "goals": (self.goal(0), self.goal(1)),
            "frozen": (texts(self.frozen_cards(0)), texts(self.frozen_cards(1))),
        }

    def all_cards(self):
        """Every card of the game, wherever it is (for conservation checks)."""
        out = list(self.hands[0]) + list(self.hands[1])
        for pc, d in self.pts.items():
            out.append(pc)
            out.extend(d["jacks"])
        out += self.permanents[0] + self.permanents[1] + self.scrap + self.deck
        out += self.revealed + self.stack
        return out

    def __repr__(self):
        return f"<ReferenceGame phase={self.phase} turn={self.turn} to_move={self.to_move}>"
