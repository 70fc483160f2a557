"""The help of every command is self-sufficient for a wheel's user, who has no docs/
folder: a page of docs/ it names is said to be in the source distribution, and
`--engine` describes every engine itself."""

import argparse

from support.packaging import unplaced_docs

from cuttle.cli import build_parser
from cuttle.review import ENGINE_NAMES


def parsers(parser, name="cuttle"):
    """(command, parser) for the command line and every sub-command, nested."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, p in action.choices.items():
                yield from parsers(p, f"{name} {sub}")


def help_texts(parser):
    """Every text of a parser's help as written (before argparse wraps it)."""
    texts = [parser.description, parser.epilog, parser.usage]
    for action in parser._actions:
        texts.append(action.help)
        if isinstance(action, argparse._SubParsersAction):
            texts += [a.help for a in action._choices_actions]
    return [t for t in texts if isinstance(t, str)]


def test_every_command_is_found():
    names = {name for name, _ in parsers(build_parser())}
    assert {"cuttle", "cuttle review", "cuttle replay", "cuttle simulate"} <= names, names


def test_no_help_points_at_docs_without_saying_where_they_are():
    bad = {name: unplaced_docs(text) for name, p in parsers(build_parser())
           for text in help_texts(p) if unplaced_docs(text)}
    assert not bad, bad


def test_the_checker_finds_a_bare_docs_path():
    assert unplaced_docs("see docs/review.md") == ["docs/review.md"]
    assert unplaced_docs("(see docs/review.md)") == ["docs/review.md"]
    assert unplaced_docs("docs/rules-decisions.md in the\n  source distribution") == []
    assert unplaced_docs("docs/no-such-page.md in the source distribution") \
        == ["docs/no-such-page.md"]
    assert unplaced_docs("docs/review.md#a-game-of-a-simulation in the source "
                         "distribution") == []


def test_the_engine_help_describes_every_engine():
    for name, p in parsers(build_parser()):
        if name in ("cuttle review", "cuttle replay"):
            (engine,) = [a.help for a in p._actions if "--engine" in a.option_strings]
            for engine_name in ENGINE_NAMES:
                assert engine_name in engine, (name, engine_name)
            assert "N = 256" in engine and "N = 1000" in engine, engine
            assert "Default expert" in engine, engine
