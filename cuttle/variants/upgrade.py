"""An atlas results file of version 1 upgraded in place to version 2 (`store.VERSION`).

In version 1 an atlas stamped every record of a group (a base under a pairing) with one
fingerprint of the group: the first games of the base and of every variant, so a group
with one variant more (a flag added to the rules) refused the whole file.  From version
2 on every record carries its own fingerprint (`chunks.Stamps`: the first games of its
own two rule sets), as the balance designer's records always did, and a run with more
variants plays only those the file lacks.

A run that plays into a file of version 1 (`atlas()`, before anything is played)
checks each group's old fingerprint against this cuttle: the first games of the base and
of the variants the file holds (those of its first chunk, in the order of
`rulesets.variants`).  A group whose games still play as they did has each of its
records stamped with its own fingerprint; one whose games differ (another version of
the engine or policy played it) or that cannot be checked (a variant this cuttle no
longer plays, a policy it lacks) keeps its old one, and a run reading its records
refuses them, saying why (`Store.causes`).  The file is written again with the header
of version 2 only if some group was checked (`Store.rewrite`: the old file stays whole
until the new one is complete).  Reading without playing (--report-only) reads a file of
version 1 as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..formatting import quantity
from ..policies import policy_name
from ..rules import Rules
from .chunks import Stamps
from .interactions import pairs_of
from .rulesets import variants

if TYPE_CHECKING:
    from .records import ChunkKey
    from .store import Store

__all__ = ["upgrade"]


def upgrade(store: Store, threads: int | None = None) -> None:
    """Upgrade `store`, an atlas's file of version 1 open for writing (`Store.legacy`),
    to version 2 (module docstring); a note in `store.notes` says what it did."""
    groups = _groups(store)
    stamps: dict[tuple, Stamps] = {}
    checked: dict[tuple, Stamps] = {}           # (run, old fingerprint) -> its stamps
    for (run, stamp), (bases, chunk0, texts) in groups.items():
        why, base, kept = _old_group(run, bases, chunk0)
        if why is None:
            players, seed, max_moves, _ = run
            s = stamps.setdefault((players[0], seed, max_moves),
                                  Stamps(players[0], seed, max_moves, threads))
            s.prime(r for r in map(_rules, texts) if r is not None)
            if s.of([base, *kept]) == stamp:
                checked[(run, stamp)] = s
                continue
            why = (f"another version of the engine or of the {players[0]} policy played "
                   f"this chunk's group ({_group(base.preset, run)}; a file of an earlier "
                   f"format, stamped by the whole group: the first games of its base and "
                   f"its {quantity(len(kept), 'variant')} differ from this cuttle's)")
        if stamp is not None:
            store.causes[stamp] = why
    if not checked:
        return

    def stamp_of(key: ChunkKey, stamp: str | None) -> str | None:
        s = checked.get((key[2:6], stamp))
        ref, rules = _rules(key[0]), _rules(key[1])
        if s is None or ref is None or rules is None:
            return None
        return s(ref, rules)

    store.rewrite(stamp_of)
    store.notes.append(f"{store.path}: upgraded to the format of this version (each "
                       f"record stamped by its own games, so that a run with new variants "
                       f"plays only those): {quantity(len(checked), 'group')} checked"
                       + (f", {quantity(len(groups) - len(checked), 'group')} not (their "
                          f"records are refused)" if len(checked) < len(groups) else ""))


def _groups(store):
    """{(run, fingerprint): (the rule texts of its records of a rule set alone, those
    against its base in its first chunk, every rule text of its records)}; a run is
    (players, seed, max_moves, chunk_size)."""
    out: dict[tuple, tuple[set, set, set]] = {}
    firsts: dict[tuple, set] = {}
    for key, stamp in store.stamps():
        group = (key[2:6], stamp)
        bases, _, texts = out.setdefault(group, (set(), set(), set()))
        texts.update(key[:2])
        if key[0] == key[1]:
            bases.add(key[0])
        if key[-1] == 0:
            firsts.setdefault(group, set()).add(key[:2])
    for group, (bases, chunk0, _) in out.items():
        chunk0.update(rules for ref, rules in firsts.get(group, ()) if {ref} == bases)
    return out


def _old_group(run, bases, chunk0):
    """(None, base, the variants of the group in its old order), or (why its old
    fingerprint cannot be checked, None, None)."""
    players = run[0]
    try:
        ok = players[0] == players[1] and policy_name(players[0]) == players[0]
    except ValueError:
        ok = False
    if not ok:
        return (f"the file's chunks of {' and '.join(players)} are of an earlier format, "
                f"whose fingerprint this cuttle can check only for self-play of a policy "
                f"it has"), None, None
    if len(bases) != 1:
        return (f"the file's chunks of {players[0]} self-play are of an earlier format, "
                f"stamped by a group whose base they do not tell"), None, None
    base = _rules(next(iter(bases)))
    ours = [] if base is None or base.changed() else variants(base.preset)
    known = {str(base), *(str(v.rules) for v in ours),
             *(str(ab) for _, _, ab in pairs_of(ours, base))}
    gone = sorted(chunk0 - known)
    if base is None or base.changed() or gone:
        what = f"rule sets this cuttle's atlas does not play ({'; '.join(gone)})" if gone \
            else "a base this cuttle has not"
        return (f"this chunk's group ({_group(next(iter(bases)), run)}) is of an earlier "
                f"format, stamped by the whole group, and played {what}: its fingerprint "
                f"cannot be checked"), None, None
    return None, base, [v.rules for v in ours if str(v.rules) in chunk0]


def _group(base, run):
    return f"the {base} group under {run[0][0]} self-play, seed {run[1]}"


def _rules(text):
    """The Rules whose text is `text`, or None (not a rule set this cuttle reads as
    that text)."""
    try:
        rules = Rules.coerce(text)
    except ValueError:
        return None
    return rules if str(rules) == text else None
