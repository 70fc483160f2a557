"""The words of a freeze the core refused: why the frozen cards of a position or a pickle
are ones no 9 freezes, naming the cards.  Which freezes a 9 makes is the core's
(`_checks.check_freezes`, its one home, which finds the refusal and the cards behind it:
`_core.FreezeRefused`); this module only says it, for `Game.from_position`,
`Game.from_text` and an unpickled Game alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["freeze_words"]


def freeze_words(fault: dict[str, Any], rules: Rules) -> str:
    """Why a freeze the core refused (`_core.FreezeRefused`'s `fault`, found by
    `_checks.check_freezes`, the one home of which freezes a 9 makes) is one no 9
    makes, naming its cards: the words of a position's refusal and a pickle's."""
    code, p, this_turn = fault["code"], fault["player"], fault["this_turn"]
    cards = [CARDS[i] for i in fault["cards"]]
    names = " ".join(map(str, cards))
    first = f"frozen card {cards[0]} of player {p}"
    moving = fault["to_move"] == fault["turn"]
    if p == fault["turn"]:
        role = "to move" if moving else "whose turn it is"
    else:
        role = "not to move" if moving else "whose turn it is not"
    if code == "FROZEN_WITHOUT_FREEZE":
        return (f"frozen card {cards[0]}: only the rule nine=freeze freezes cards (these "
                f"rules have nine={rules.nine})")
    if code == "FROZEN_JOKER":
        return (f"{first}: no 9 returns the joker to a hand (it is only ever played as a "
                f"one-off), so it is never frozen")
    if code == "FROZEN_POINT_CARD":
        return (f"{first}: a 9 returns only Kings, Queens, glasses-8s and Jacks to a hand "
                f"when it may not target point cards (these rules have "
                f"nine_targets_points=false), so it is never frozen")
    if code == "FROZEN_BY_OWN_NINE":
        return (f"{first}, {role}: only its own 9 of "
                f"{'this turn' if this_turn else 'its last turn'} could have frozen it, and "
                f"these rules' 9 targets only the other player's cards "
                f"(targets_own_side=false)")
    if code == "FROZEN_BEFORE_NINE":
        return (f"{first}, {role}: only a 9 of this turn could have frozen it, and none "
                f"has taken effect this turn (a 9 that does ends the turn's play)")
    if code == "FROZEN_BY_ONE_NINE":
        if this_turn:
            return (f"frozen cards {names}: only the 9 of this turn could have frozen "
                    f"them, and a 9 returns one card")
        return (f"frozen cards {names} of player {p}, {role}: only its own 9 of its last "
                f"turn could have frozen them, and a 9 returns one card")
    if code == "FROZEN_WITHOUT_NINE":
        return _missing_nine_words(fault, rules, cards, f"{first}, {role}")
    assert code == "TOO_MANY_FROZEN", code
    # (this_turn: the turn's own 9 has taken effect, and is not counted here)
    if rules.targets_own_side:
        whose = ("the 9s of the two turns before this one" if this_turn else
                 "the 9s of the last two turns")
    else:
        whose = ("the 9 of the turn before this one" if this_turn else
                 "the last turn's 9") + " (targets_own_side=false)"
    return (f"{len(cards)} frozen cards ({names}): a 9 returns one card, and only {whose} "
            f"can have frozen a card still frozen, so at most "
            f"{2 if rules.targets_own_side else 1}")


def _missing_nine_words(fault, rules, cards, first):
    """Why the scrap lacks a 9 behind a freeze (FROZEN_WITHOUT_NINE, see
    `freeze_words`): what the scrap holds, and why no 3 can have taken the 9 back."""
    nines = [str(CARDS[i]) for i in fault["nines"]]
    short = len(cards) - len(nines)
    held = ("no 9" if not nines else f"only {nines[0]}" if len(nines) == 1
            else f"only {len(nines)} 9s ({' '.join(nines)})")
    if len(cards) == 1:
        head, it = f"{first}: the 9 that froze it went to the scrap, which holds {held}", "it"
    else:
        head = (f"{len(cards)} frozen cards ({' '.join(map(str, cards))}): each was frozen "
                f"by a 9 of its own, which went to the scrap, and the scrap holds {held}")
        it = "one of them"
    if short > 1:
        why = "at most one 3 can have taken one of those 9s back since"
    elif not fault["threes"]:
        why = f"no 3 is in the scrap, where a 3 that took {it} back would be"
    else:
        assert not fault["took"], fault         # (check_freezes refuses nothing else)
        why = (f"no 3 can have taken {it} back since: this turn's only once it has taken "
               f"effect (in the hand-limit discard, or at the end), and the last turn's "
               f"only if that turn froze nothing and the player to move's own 9 froze its "
               f"one frozen card the turn before"
               + ("" if rules.targets_own_side else
                  ", which these rules' 9 cannot (targets_own_side=false)"))
    return f"{head}; a 9 leaves the scrap only when a 3 takes it, and {why}"
