"""Fixtures of the picture tests: one headless Chromium per test module (skipped, saying
why, only where Chromium or selenium cannot be found), and games to draw."""

import random

import pytest

import cuttle
from report import chromium


@pytest.fixture(scope="module")
def browser():
    found = chromium.find()
    if isinstance(found, str):
        pytest.skip(found)
    d = chromium.start()
    d.set_script_timeout(20)
    yield d
    d.quit()


def play_random(game, plies, seed, prefer=()):
    """Play up to `plies` random moves (moves with a verb in `prefer` first, so that the
    table fills up) and return the game."""
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        moves = list(game.legal_moves)
        liked = [m for m in moves if m.verb in prefer]
        game.play(rng.choice(liked if liked and rng.random() < 0.8 else moves))
    return game


def visible_cards(g, viewer):
    """Every card `viewer` may see (None: every card not in the deck; of a hidden hand,
    the cards the viewer knows), sorted."""
    out = []
    for p in (0, 1):
        if viewer is None or viewer == p or g.is_public_hand(p):
            out += g.hand(p)
        else:
            out += g.observation(viewer).opponent_known
        out += g.permanents(p)
        for c in g.points(p):
            out += [c] + g.jacks(c)
    return sorted(out + g.scrap + g.stack + g.revealed)


def busy():
    """A cuttle.cards table with everything on it: point cards with Jacks, permanents
    (P1's glasses make P0's hand public), a scrap, and a one-off waiting for a counter."""
    g = cuttle.Game.from_position(
        "cuttle.cards", hands=("2C 9H 7D 4S 5D".split(), "4H 8D QS 6C 3C 2D".split()),
        points=(["3H", "9S[JH]"], ["7S[JC,JD]", "4D"]), permanents=(["KD"], ["8H", "QC"]),
        scrap="AS 2H 3D 5C 6H 9D TD".split(), seed=4)
    g.play("oneoff 2C QC")
    return g


@pytest.fixture
def busy_game():
    return busy()
