"""The results file of benchmarks/bench_search_match.py (--out): a line of the match, then
a line a game, each checked when read (a line that is not a match's or a game's, a value
out of range or a game twice refused, naming the file's line); a last line cut off by
an interrupted write dropped by the rule of `cuttle.files`, as the atlas's results file."""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FORMAT = 2                           # --out: a line of the match, then a line a game
MAX_LINE_BYTES = 1 << 20             # (a line takes about 100 bytes, the match's 700)


def from_here():
    """This checkout's cuttle first on sys.path (the other build's process, `serve`,
    puts its own there)."""
    here = os.path.join(HERE, "..")
    if here not in sys.path:
        sys.path.insert(0, here)


def scan(path):
    """(the match a --out file records, or None in a file of an older version or none
    yet; its games' rows; its last line, a `cuttle.files.JsonLine`, or None), every line
    checked: ValueError naming the file's line for one that is not a match's, a game's
    out of range or a game twice.  A last line cut off by an interrupted write is left
    out (`cuttle.files`' rule, as the atlas's results file)."""
    from_here()
    from cuttle.files import cut_off, json_lines
    if not os.path.exists(path):
        return None, [], None
    match, rows, seen, last = None, [], {}, None
    with open(path, "rb") as f:
        for last in json_lines(f, MAX_LINE_BYTES):
            if cut_off(last) or not last.raw.strip():
                continue
            where = f"{path}, line {last.lineno}"
            if last.error is not None:
                raise ValueError(f"{where}: {last.error}; the file is damaged")
            if last.lineno == 1 and isinstance(last.value, dict) and "match" in last.value:
                match = check_match(last.value["match"], where)
                continue
            r = check_row(last.value, where, match)
            if r["game"] in seen:
                raise ValueError(f"{where}: game {r['game']} again (also on line "
                                 f"{seen[r['game']]}); the file is damaged")
            seen[r["game"]] = last.lineno
            rows.append(r)
    return match, rows, last


def read(path):
    """`scan`'s match and rows, a cut-off last line said on stderr."""
    from_here()
    from cuttle.files import cut_off, cut_off_note
    match, rows, last = scan(path)
    if last is not None and cut_off(last):
        print(cut_off_note(path, last.lineno, False, "a rerun of the match drops it and "
                           "plays its game again"), file=sys.stderr)
    return match, rows


def mend(path, last):
    """Ready a --out file whose last line is `last` for its games to be appended: a
    line cut off dropped (said on stderr), a whole one given its newline."""
    from_here()
    from cuttle.files import cut_off, cut_off_note, mend_tail
    if last is None:
        return
    if cut_off(last):
        print(cut_off_note(path, last.lineno, True, "its game will be played again"),
              file=sys.stderr)
    with open(path, "r+b") as f:
        mend_tail(f, last)


def is_int(x):
    return type(x) is int                           # (not a bool, not 1.0)


def check_match(m, where):
    """A --out file's match line, checked field by field; ValueError naming it."""
    if not isinstance(m, dict):
        raise ValueError(f"{where}: the match's options are not a JSON object")
    if m.get("format") != FORMAT:
        raise ValueError(f"{where}: a match file of format {m.get('format')!r}; this "
                         f"script reads format {FORMAT}")
    kinds = {"mine": str, "theirs": str, "rules": str, "other": str, "mine_source": str,
             "other_source": str, "mine_config": dict}
    for key, kind in kinds.items():
        if not isinstance(m.get(key), kind):
            raise ValueError(f"{where}: the match's {key!r} is "
                             f"{json.dumps(m.get(key))[:40]}, not a {kind.__name__}")
    for key in ("mine_commit", "other_commit"):
        if not (m.get(key) is None or isinstance(m[key], str)):
            raise ValueError(f"{where}: the match's {key!r} is not a commit's name")
    for key, least in (("seed", 0), ("move_guard", 1)):
        if not (is_int(m.get(key)) and m[key] >= least):
            raise ValueError(f"{where}: the match's {key!r} is "
                             f"{json.dumps(m.get(key))[:40]}, not a whole number of at "
                             f"least {least}")
    return m


ROW_KEYS = ("game", "seat", "score", "moves", "cpu", "dec")


def check_row(r, where, match):
    """A game's line, checked: its fields, their types and ranges, and with each other
    (its seat is its number's, its decisions among its moves); ValueError naming it."""
    if not isinstance(r, dict) or "match" in r:
        raise ValueError(f"{where}: not a game's result (a JSON object of "
                         f"{', '.join(ROW_KEYS)})")
    if set(r) != set(ROW_KEYS):
        odd = sorted(set(r) ^ set(ROW_KEYS))
        raise ValueError(f"{where}: a game's result has the fields {', '.join(ROW_KEYS)} "
                         f"(not so: {', '.join(map(repr, odd))})")

    def bad(key, why):
        return ValueError(f"{where}: {key} {json.dumps(r[key])[:40]}: {why}")
    if not (is_int(r["game"]) and r["game"] >= 0):
        raise bad("game", "a game's number is a whole number of at least 0")
    if not (is_int(r["seat"]) and r["seat"] == r["game"] % 2):
        raise bad("seat", f"game {r['game']} puts this checkout in seat {r['game'] % 2}")
    if not (type(r["score"]) in (int, float) and r["score"] in (0, 0.5, 1)):
        raise bad("score", "a game scores 0, 0.5 (a draw) or 1")
    guard = None if match is None else match["move_guard"]
    if not (is_int(r["moves"]) and 0 <= r["moves"] <= (guard or r["moves"])):
        raise bad("moves", "a game's moves are a whole number of at least 0"
                  + (f", at most the move guard, {guard}" if guard else ""))
    if not (isinstance(r["cpu"], list) and len(r["cpu"]) == 2
            and all(type(x) in (int, float) and 0 <= x < float("inf") for x in r["cpu"])):
        raise bad("cpu", "each side's CPU time, two finite numbers of at least 0")
    if not (isinstance(r["dec"], list) and len(r["dec"]) == 2
            and all(is_int(x) and x >= 0 for x in r["dec"])
            and sum(r["dec"]) <= r["moves"]):
        raise bad("dec", f"each side's decisions, two whole numbers of at least 0 adding "
                         f"up to at most its {r['moves']} moves")
    return r
