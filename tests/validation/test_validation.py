"""cuttle.validation: the one rule for integers, players, fractions, confidence levels and
output paths, and the library's entry points applying it alike (numpy integers accepted
everywhere, bools and floats refused everywhere, a bad confidence level refused before
any work)."""

import math
import os
import pathlib
import re

import numpy as np
import pytest
from hypothesis import given, strategies as st

import cuttle
import cuttle.narration
import cuttle.rl
import cuttle.variants
from cuttle.stats import z_value
from cuttle.validation import (MAX_TARGET, check_bool, check_confidence, check_count,
                               check_fraction, check_int, check_output_folder,
                               check_output_path, check_player, check_target, is_int)

NUMPY_INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
              np.uint64]


# -- integers -------------------------------------------------------------------------------

@given(st.integers(0, 100), st.sampled_from(NUMPY_INTS))
def test_numpy_integers_are_ints(value, dtype):
    x = dtype(value)
    assert is_int(x)
    out = check_int(x, "n", 0, 100)
    assert out == value and type(out) is int


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, np.float64(2.0), "3",
                                   None, 2 + 0j, [1]])
def test_non_integers_are_refused(value):
    assert not is_int(value)
    with pytest.raises(ValueError, match=r"^n_games must be a positive int, not "):
        check_count(value, "n_games")


@given(st.integers(-10**30, 10**30), st.integers(-50, 50), st.integers(-50, 50))
def test_bounds(value, lo, hi):
    if lo <= value <= hi:
        assert check_int(value, "x", lo, hi) == value
        return
    with pytest.raises(ValueError) as e:
        check_int(value, "x", lo, hi)
    said = str(e.value)
    assert said.startswith("x must be at ") and said.endswith(f"not {value:,}")
    assert ("at least" in said) == (value < lo)


def test_messages_name_the_argument_and_the_range():
    with pytest.raises(ValueError, match=r"^chunk_size must be at most 16, not 17$"):
        check_count(17, "chunk_size", 16)
    with pytest.raises(ValueError, match=r"^k must be an int from 1 to 16, not 1\.5$"):
        check_count(1.5, "k", 16)
    with pytest.raises(ValueError, match=r"^seed must be an int from 0 to 2\*\*64-1, not -1$"):
        cuttle.seeding.check_seed(-1)


def test_a_seed_a_person_gave_is_read_with_one_wording():
    """read_seed: the command line's and the web app's seeds, as text or a number; every
    bad one said the same way (the web app said "an int" of -1, "a whole number" of 'abc')."""
    read = cuttle.seeding.read_seed
    assert [read(v) for v in (7, np.uint64(7), "7", " 007 ", "0x7", "0b111", "7_0")] == \
        [7, 7, 7, 7, 7, 7, 70]
    assert read(str(2 ** 64 - 1)) == 2 ** 64 - 1
    for bad in (-1, "-1", "abc", "", "7.0", 7.0, True, None, 2 ** 64, "\u0667", "0x"):
        with pytest.raises(ValueError) as e:
            read(bad)
        assert str(e.value) == f"seed must be a whole number from 0 to 2**64-1, not {bad!r}"


def test_players():
    for p in (0, 1, np.int64(1), np.uint8(0)):
        assert check_player(p) == p and type(check_player(p)) is int
    for bad in (2, -1, True, 0.0, "0", None):
        with pytest.raises(ValueError, match="player must be 0 or 1, not"):
            check_player(bad)
    assert check_player(None, "seat", none="random") is None
    with pytest.raises(ValueError, match=r"seat must be 0 or 1 or None \(random\), not 2"):
        check_player(2, "seat", none="random")


def test_bools():
    assert check_bool(np.bool_(False), "b") is False and check_bool(True, "b") is True
    for bad in (0, 1, "yes", None):
        with pytest.raises(ValueError, match="b must be True or False"):
            check_bool(bad, "b")


# -- fractions and confidence levels ----------------------------------------------------------

@given(st.floats(allow_nan=True, allow_infinity=True))
def test_a_confidence_level_is_accepted_exactly_when_its_interval_is_finite(c):
    try:
        checked = check_confidence(c)
    except ValueError as e:
        assert "confidence must be a number more than 0 and less than 1" in str(e)
        assert not (0 < c < 1) or 0.5 + c / 2 >= 1
        return
    assert 0 < checked < 1 and math.isfinite(z_value(checked)) and z_value(checked) >= 0


@pytest.mark.parametrize("c", [0.9999999999999999, 1.0, 0.0, -0.5, math.nan, math.inf, True,
                               "0.95", None])
def test_sharp_confidence_levels_are_refused(c):
    with pytest.raises(ValueError, match="confidence must be a number more than 0 and less "
                                         "than 1"):
        check_confidence(c)
    with pytest.raises(ValueError, match="confidence must be"):
        z_value(c)


def test_confidence_levels_of_every_kind_of_number():
    assert check_confidence(np.float32(0.5)) == 0.5 and check_confidence(0.95) == 0.95
    assert check_confidence(1 - 2 ** -52) < 1 and math.isfinite(z_value(1 - 2 ** -52))
    with pytest.raises(ValueError, match=r"target must be a number more than 0 and less than "
                                         r"1 \(a hint\)"):
        check_fraction(1.0, "target", " (a hint)")


def test_a_target_in_points_given_as_a_fraction_is_refused(tmp_path, capsys):
    # Python takes fractions where the command line takes percentage points: target=0.5
    # was taken as 50 points, and every variant "converged" after one chunk.
    assert check_target(MAX_TARGET) == 0.1 and check_target(0.005) == 0.005
    message = ("target=0.5 is a half-width of 50 percentage points (targets are fractions "
               "here: 0.005 is 0.5 pp); a target above 0.1 (10 pp) is refused")
    with pytest.raises(ValueError, match=re.escape(message)):
        check_target(0.5)
    results = str(tmp_path / "r.jsonl")
    with pytest.raises(ValueError, match=re.escape(message)):
        cuttle.atlas(quick=True, target=0.5, results=results, progress=False)
    with pytest.raises(ValueError, match=r"target=0\.5 is a half-width of 50 percentage"):
        cuttle.variants.Pairing("random", target=0.5)
    for key in ("screen_target", "interaction_target", "race_target", "confirm_target"):
        with pytest.raises(ValueError, match=rf"{key}=0\.5 is a half-width of 50 percentage "
                                             rf"points .* a {key} above 0\.1 \(10 pp\)"):
            cuttle.balance(budget={key: 0.5}, results=results, progress=False)
    assert not os.path.exists(results)                    # (refused before any work)
    # the command line takes points, to the same bound
    from cuttle.cli import main
    for argv in (["atlas", "--quick", "--target", "20"],
                 ["balance", "--quick", "--screen-target", "20"]):
        assert main(argv) == 2
        assert ("a target half-width must be more than 0 and at most 10 percentage "
                "points, not '20'") in \
            capsys.readouterr().err


def test_a_bad_confidence_level_fails_before_any_work(tmp_path):
    calls = []
    for c in (0.9999999999999999, 1.0, 0):
        with pytest.raises(ValueError, match="confidence"):
            cuttle.compare(["classic", "quick"], 10**9, seed=1, confidence=c,
                           progress=lambda done, total: calls.append(done))
        with pytest.raises(ValueError, match="confidence"):
            cuttle.atlas("random", seed=1, confidence=c, results=tmp_path / "a.jsonl")
    assert calls == [] and os.listdir(tmp_path) == []
    r = cuttle.simulate(10, seed=1, progress=False)
    with pytest.raises(ValueError, match="confidence"):
        r.summary(0.9999999999999999)


# -- output paths -----------------------------------------------------------------------------

def test_output_paths(tmp_path):
    assert check_output_path(tmp_path / "a.json") == str(tmp_path / "a.json")
    assert check_output_path(str(tmp_path / "a.json"), "--json") == str(tmp_path / "a.json")
    with pytest.raises(ValueError, match=r"^--json: '.*' is a folder, not a file$"):
        check_output_path(str(tmp_path), "--json")
    with pytest.raises(ValueError, match=r"^cannot write '.*': no folder '.*no'$"):
        check_output_path(str(tmp_path / "no" / "a.json"))
    for bad in ("", None, 5, b"x"):
        with pytest.raises(ValueError, match="must be the path of a file"):
            check_output_path(bad)
    with pytest.raises(ValueError, match="NUL"):
        check_output_path("a\0b")
    assert os.listdir(tmp_path) == []           # nothing is created by a check


def test_output_folders(tmp_path):
    assert check_output_folder(tmp_path) == str(tmp_path)
    assert check_output_folder(tmp_path / "new") == str(tmp_path / "new")
    assert not (tmp_path / "new").exists()
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match="is a file, not a folder"):
        check_output_folder(tmp_path / "f", "--plot")
    with pytest.raises(ValueError, match="no folder"):
        check_output_folder(tmp_path / "a" / "b")


def test_an_output_path_through_a_file_is_refused_as_a_value_error(tmp_path):
    # A file where a folder of the path should be: refused up front as a bad path
    # (ValueError, naming the file), not an OSError once the work is done.
    (tmp_path / "f").write_text("x")
    for path in (tmp_path / "f" / "a.json", tmp_path / "f" / "sub" / "a.json"):
        with pytest.raises(ValueError, match=r"^--json: cannot write '.*': '.*f' is a file, "
                                             r"not a folder$"):
            check_output_path(path, "--json")
    for folder in (tmp_path / "f" / "plots", tmp_path / "f" / "a" / "plots"):
        with pytest.raises(ValueError, match=r"^--plot: cannot make the folder '.*': '.*f' is "
                                             r"a file, not a folder$"):
            check_output_folder(folder, "--plot")
    assert sorted(os.listdir(tmp_path)) == ["f"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_output_paths(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="permission denied"):
            check_output_path(ro / "a.json")
        with pytest.raises(ValueError, match="permission denied"):
            check_output_folder(ro / "plots")
    finally:
        ro.chmod(0o700)


def test_the_api_checks_output_paths_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="games_csv: cannot write .*: no folder"):
        cuttle.simulate(10**9, seed=1, games_csv=tmp_path / "no" / "g.csv", progress=False)
    with pytest.raises(ValueError, match="games_csv: .* is a folder"):
        cuttle.simulate(10**9, seed=1, games_csv=str(tmp_path), progress=False)
    with pytest.raises(ValueError, match="results: cannot write .*: no folder"):
        cuttle.atlas("random", seed=1, results=tmp_path / "no" / "a.jsonl")
    assert os.listdir(tmp_path) == []


# -- the entry points apply one rule ------------------------------------------------------------

def _entry_points():
    """(name, call(value)[, a good value, default 1]) for every integer argument of the
    library's entry points."""
    g = cuttle.Game(seed=1)
    drawn = g.copy()
    drawn.play("draw")
    return [
        ("Game max_moves", lambda v: cuttle.Game(seed=1, max_moves=v)),
        ("Game seed", lambda v: cuttle.Game(seed=v)),
        ("Game.from_run index", lambda v: cuttle.Game.from_run(seed=1, index=v)),
        ("Game.hand player", lambda v: g.hand(v)),
        ("Game.observation player", lambda v: g.observation(v)),
        ("Game.render viewer", lambda v: g.render(viewer=v)),
        ("narrate viewer", lambda v: cuttle.narration.narrate(g, drawn, v)),
        ("narrate_game viewer", lambda v: cuttle.narration.narrate_game(g, ["draw"], v)),
        ("from_position to_move", lambda v: cuttle.Game.from_position(to_move=v, seed=1)),
        ("Card index", lambda v: cuttle.Card(v)),
        ("Move.from_code", lambda v: cuttle.Move.from_code(v), cuttle.Move("draw").code),
        ("simulate n_games", lambda v: cuttle.simulate(v, seed=1, progress=False)),
        ("simulate max_moves", lambda v: cuttle.simulate(2, seed=1, max_moves=v,
                                                         progress=False)),
        ("simulate chunk_size", lambda v: cuttle.simulate(2, seed=1, chunk_size=v,
                                                          progress=False)),
        ("simulate start", lambda v: cuttle.simulate(2, seed=1, start=v, progress=False)),
        ("compare n_games", lambda v: cuttle.compare(["classic", "quick"], v, seed=1,
                                                     progress=False)),
        ("compare index", lambda v: cuttle.compare(["classic", "quick"], 2, seed=1,
                                                   progress=False).estimate("draw_rate", v)),
        ("analyse rollouts", lambda v: cuttle.analyse(g, rollouts=v, seed=1, threads=1)),
        ("Pairing max_games", lambda v: cuttle.variants.Pairing("random", max_games=v)),
        ("Pairing chunk_size", lambda v: cuttle.variants.Pairing("random", chunk_size=v)),
        ("VectorEnv num_envs", lambda v: cuttle.rl.VectorEnv(v, threads=1)),
        ("VectorEnv max_moves", lambda v: cuttle.rl.VectorEnv(1, max_moves=v, threads=1)),
        ("VectorEnv seat", lambda v: cuttle.rl.VectorEnv(1, seat=v, opponent="random",
                                                         threads=1)),
        ("action", lambda v: cuttle.rl.move_of(v)),
        ("Summary player", lambda v: cuttle.simulate(2, seed=1, progress=False)
         .summary().win_rate(v)),
    ]


@pytest.mark.parametrize("entry", _entry_points(), ids=lambda e: e[0])
def test_every_entry_point_takes_numpy_integers_and_refuses_bools(entry):
    name, call, good = (entry + (1,))[:3]
    call(good)
    call(np.int64(good))
    call(np.uint16(good))
    for bad in (True, float(good), str(good)):
        with pytest.raises(ValueError):
            call(bad)


def test_the_rl_and_openspiel_entry_points_take_numpy_integers():
    pytest.importorskip("pettingzoo")
    from cuttle.rl.gym_env import GymEnv
    env = cuttle.rl.aec_env(max_moves=np.int64(5))
    assert env.max_moves == 5 and type(env.max_moves) is int
    env = GymEnv(max_moves=np.int64(5), seat=np.int64(1))
    assert env.max_moves == 5 and env.seat == 1
    env.reset(seed=np.uint64(3))
    for make in (lambda: cuttle.rl.aec_env(max_moves=True),
                 lambda: GymEnv(max_moves=5.0), lambda: GymEnv(seat=True),
                 lambda: GymEnv().reset(seed=-1), lambda: GymEnv().reset(seed=2**64)):
        with pytest.raises(ValueError):
            make()


def test_openspiel_max_moves():
    pytest.importorskip("pyspiel")
    import pyspiel
    import cuttle.openspiel as cos
    assert cos.game_string(max_moves=np.int64(7)).endswith("max_moves=7)")
    with pytest.raises(ValueError, match="max_moves must be at least 1"):
        cos.game_string(max_moves=0)
    with pytest.raises(Exception, match="max_moves must be at least 1"):
        pyspiel.load_game("python_cuttle(max_moves=0)")


def test_seeds_are_checked_by_the_seed_rule_everywhere():
    # (each refuses what seeding.check_seed refuses, with its message)
    g = cuttle.Game(seed=1)
    calls = [lambda s: cuttle.Game(seed=s), lambda s: g.determinize(0, seed=s),
             lambda s: cuttle.Bot("random", seed=s), lambda s: cuttle.simulate(2, seed=s),
             lambda s: cuttle.analyse(g, rollouts=1, seed=s),
             lambda s: cuttle.rl.VectorEnv(1, threads=1).reset(seed=s),
             lambda s: cuttle.atlas("random", seed=s, play=False, results="x"),
             lambda s: cuttle.Game.from_run(seed=s, index=0),
             lambda s: cuttle.Game.from_position(seed=s),
             lambda s: cuttle.seeding.derive(1, s)]
    for call in calls:
        for bad in (-1, 2**64, True, 1.5, "7"):
            with pytest.raises(ValueError, match=r"must be an int from 0 to 2\*\*64-1"):
                call(bad)


def test_paths_may_be_pathlike(tmp_path):
    out = pathlib.Path(tmp_path) / "g.csv"
    cuttle.simulate(3, seed=1, games_csv=out, progress=False)
    assert out.read_text().count("\n") == 4
