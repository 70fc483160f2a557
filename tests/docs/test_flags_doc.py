"""The docs' lists of the rule flags and presets agree with `cuttle.flags`, their one
declaration: README.md's prose list, docs/rules.md's preset table and its table of every
flag (section 5, "Flags": the values, both presets' settings and the sources).  The
table's last column, what a flag changes, is the rulebook's own fuller statement of the
flag's one-line `text` and is not compared."""

import pathlib
import re

import pytest

from cuttle.flags import FLAGS, MAX_DEAL, MAX_GOAL, MAX_LIMIT, PRESETS

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def flag_rows():
    """{flag: its row's cells} of docs/rules.md's flag table, in the table's order."""
    table = re.search(r"^### Flags\n\n(.*?)\n\n", RULES, re.S | re.M).group(1)
    rows = [line.strip("|").split(" | ") for line in table.splitlines()[2:]]
    return {re.fullmatch(r" ?`(\w+)`", row[0]).group(1): [c.strip() for c in row[1:]]
            for row in rows}


def values_cell(flag):
    """The values column: what the flag takes, as the table writes it."""
    return {"bool": "bool", "goals": f"5 ints from 0 to {MAX_GOAL}, the first ≥ 1",
            "limit": f"`None`, 0–{MAX_LIMIT}", "deal": f"2 ints from 1 to {MAX_DEAL}",
            }.get(flag.kind) or ", ".join(f'`"{v}"`' for v in flag.values)


def value_cell(value):
    """A preset's value as the table writes it (Python, tuples without spaces)."""
    if isinstance(value, tuple):
        return f"`({','.join(map(str, value))})`"
    return f'`"{value}"`' if isinstance(value, str) else f"`{value!r}`"


def test_the_flag_table_has_a_row_for_every_flag_in_order():
    assert list(flag_rows()) == list(FLAGS)


@pytest.mark.parametrize("name", FLAGS)
def test_a_flags_row_gives_its_values_and_both_presets(name):
    flag, cells = FLAGS[name], flag_rows().get(name)
    assert cells is not None, f"docs/rules.md's flag table has no row for {name}"
    values, classic, cuttle_cards, source, meaning = cells
    assert values == values_cell(flag)
    assert (classic, cuttle_cards) == (value_cell(flag.classic), value_cell(flag.cuttle_cards))
    # the row names every source the flag gives (the table says more of some)
    for part in re.split(r" / |; ", flag.source):
        assert part.replace("'", '"') in source, f"{name}: source {part!r} not in {source!r}"
    assert meaning


def test_the_table_helpers_can_tell_a_wrong_row():
    # (the cells are compared, not just present: a changed preset value is seen)
    assert value_cell((21, 14, 10, 7, 5)) == "`(21,14,10,7,5)`" != value_cell((21, 14, 10, 5, 0))
    assert value_cell(None) == "`None`" and value_cell(True) == "`True`"
    assert values_cell(FLAGS["nine"]) == '`"return"`, `"freeze"`, `"topdeck"`'


def test_the_preset_table_lists_every_preset():
    table = re.search(r"^## Presets\n\n(.*?)\n\n", RULES, re.S | re.M).group(1)
    assert re.findall(r"^\| `([^`]+)` \|", table, re.M) == list(PRESETS)


def test_the_readme_names_every_flag_and_preset_in_order():
    text = re.search(r"^Presets: (.*?) any combination\s+plays\.", README,
                     re.S | re.M).group(1)
    presets, flags = text.split("The flags are ")
    assert re.findall(r"`([^`]+)`", presets) == list(PRESETS)
    assert re.findall(r"`(\w+)`", flags) == list(FLAGS)
