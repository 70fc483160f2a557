"""A missing optional package is named with the extra that installs it
(`pip install "pycuttle[rl]"`), at every place that imports one, instead of a bare
ModuleNotFoundError.  The package is hidden by a None entry in sys.modules, which makes
its import fail as if it were not installed."""

import importlib
import importlib.metadata
import os
import re
import shlex
import subprocess
import sys

import pytest

from cuttle import _optional
from cuttle.render import plot
from cuttle.simulation import connection

# module imported when the optional package is missing -> (package, extra)
IMPORT_SITES = [("cuttle.rl.aec", "pettingzoo", "rl"), ("cuttle.rl.aec", "gymnasium", "rl"),
                ("cuttle.rl.gym_env", "gymnasium", "rl"),
                ("cuttle.openspiel", "pyspiel", "openspiel"),
                ("cuttle.web.routes", "starlette", "web")]


def hide(monkeypatch, package):
    for name in list(sys.modules):
        if name == package or name.startswith(package + "."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, package, None)


def assert_names_the_extra(error, package, extra):
    text = str(error.value)
    assert isinstance(error.value, ModuleNotFoundError) and error.value.name == package
    assert f'install it with: pip install "pycuttle[{extra}]"' in text, text
    assert package in text


@pytest.mark.parametrize("module, package, extra", IMPORT_SITES)
def test_importing_without_the_package_names_the_extra(monkeypatch, module, package, extra):
    if (module, package) == ("cuttle.rl.aec", "pettingzoo"):
        pytest.importorskip("gymnasium")     # (imported first: its absence is named first)
    monkeypatch.delitem(sys.modules, module, raising=False)   # restored after the test
    hide(monkeypatch, package)
    with pytest.raises(ImportError) as e:
        importlib.import_module(module)
    assert_names_the_extra(e, package, extra)


def test_the_rl_entry_points_name_the_extra(monkeypatch):
    import cuttle.rl
    monkeypatch.delitem(sys.modules, "cuttle.rl.gym_env", raising=False)
    monkeypatch.delitem(sys.modules, "cuttle.rl.aec", raising=False)
    hide(monkeypatch, "gymnasium")
    with pytest.raises(ImportError) as e:
        cuttle.rl.GymEnv
    assert_names_the_extra(e, "gymnasium", "rl")
    with pytest.raises(ImportError) as e:
        cuttle.rl.aec_env()
    assert_names_the_extra(e, "gymnasium", "rl")


def test_plotting_without_matplotlib_names_the_extra(monkeypatch, tmp_path):
    hide(monkeypatch, "matplotlib")
    with pytest.raises(ImportError) as e:
        plot.check_plot_path(tmp_path / "p.png")
    assert_names_the_extra(e, "matplotlib", "plot")


def test_a_cluster_without_dask_names_the_extra(monkeypatch):
    hide(monkeypatch, "distributed")
    with pytest.raises(ImportError) as e:
        connection.connect("tcp://127.0.0.1:1")
    assert_names_the_extra(e, "distributed", "dask")


def test_the_command_line_says_which_extra_to_install(monkeypatch, capsys, tmp_path):
    from cuttle.cli import main
    hide(monkeypatch, "matplotlib")
    code = main(["simulate", "-n", "10", "--plot", str(tmp_path / "p.png")])
    err = capsys.readouterr().err
    assert code == 2 and 'pip install "pycuttle[plot]"' in err, err


def test_other_missing_modules_keep_their_own_error():
    error = ModuleNotFoundError("No module named 'numpy'", name="numpy")
    assert _optional.missing(error, "x") is error


def test_every_extra_named_is_declared():
    from support.packaging import extras
    declared = extras()
    for package, (extra, dist) in _optional.EXTRAS.items():
        assert extra in declared, f"{package}: no extra {extra!r} in pyproject.toml"
        # "dask[distributed]>=2023.1" installs dask and distributed
        installs = {name.strip().lower().replace("-", "_") for dep in declared[extra]
                    for name in re.split(r"[\[\],]", re.split(r"[<>=!~; ]", dep)[0]) if name}
        assert dist.lower() in installs, f"{extra!r} does not install {dist}"


def installed_extra():
    """An extra whose packages are all installed here, or None."""
    for extra in sorted({extra for extra, _ in _optional.EXTRAS.values()}):
        try:
            for dist in {d for e, d in _optional.EXTRAS.values() if e == extra}:
                importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        return extra
    return None


def pip_offline(command):
    """`command` (a pip install line) as a dry run that never reads the package index
    (nor a pip configuration file, which could name one); its output."""
    words = shlex.split(command)
    assert words[:2] == ["pip", "install"], command
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
                           "--disable-pip-version-check", *words[2:]],
                          capture_output=True, text=True, env=env, timeout=300)


def test_the_install_command_adds_the_extra_to_a_local_install():
    # pycuttle is not on the package index: the message's command must work for a
    # checkout's editable install, an sdist or a wheel, by taking the pycuttle installed
    try:
        importlib.metadata.version(_optional.DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("pycuttle is not installed in this environment")
    extra = installed_extra()
    if extra is None:
        pytest.skip("no extra's packages are all installed here")
    command = _optional.install_command(extra)
    run = pip_offline(command)
    if "no such option: --dry-run" in run.stderr:
        pytest.skip("this pip has no --dry-run (pip 22.2 and later)")
    assert run.returncode == 0, run.stderr
    assert f"Requirement already satisfied: {_optional.DISTRIBUTION}" in run.stdout, run.stdout
    assert "Would install" not in run.stdout, run.stdout
    # (the same command for a distribution not installed fails: the index is not read)
    other = pip_offline(command.replace(_optional.DISTRIBUTION, "pycuttle-not-installed"))
    assert other.returncode != 0 and "pycuttle-not-installed" in other.stderr, other.stderr
