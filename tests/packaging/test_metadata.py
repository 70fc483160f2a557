"""The distribution's metadata (pyproject.toml) and the install lines everywhere: the
free name `pycuttle` for the package `cuttle`, the version in one place, the extras,
the supported Python versions, and the README's set-up as CI runs it."""

import re

import pytest
from support.packaging import ROOT, extras, pyproject

import cuttle
from cuttle._version import __version__


def test_the_distribution_is_pycuttle_and_installs_cuttle():
    project = pyproject()["project"]
    assert project["name"] == "pycuttle"
    assert project["scripts"] == {"cuttle": "_cuttle_entry:main"}
    assert pyproject()["tool"]["setuptools"]["py-modules"] == ["_cuttle_entry"]
    assert "cuttle" in pyproject()["tool"]["setuptools"]["packages"]


def test_every_subpackage_is_packaged():
    # setuptools installs only the packages listed: one left out is missing from the
    # wheel (and `import cuttle` fails there) while every test of the source tree passes;
    # a folder of data files is listed too (setuptools warns of one left out), with its
    # files as package data
    setuptools = pyproject()["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "cuttle").rglob("__init__.py")}
    data = {name for name in setuptools["packages"]
            if not (ROOT.joinpath(*name.split(".")) / "__init__.py").exists()}
    assert found == set(setuptools["packages"]) - data
    assert data <= set(setuptools["package-data"]), data


def test_the_version_is_written_once():
    assert pyproject()["project"]["dynamic"] == ["version"]
    attr = pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "cuttle._version.__version__" and cuttle.__version__ == __version__
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog


def test_the_test_extra_holds_every_other_extra():
    found = extras()
    for extra, reqs in found.items():
        assert set(reqs) <= set(found["test"]), f"[test] lacks some of [{extra}]"
    for tool in ("pytest", "hypothesis", "pexpect", "selenium", "mkdocs"):
        assert any(r.startswith(tool) for r in found["test"]), tool


def test_every_supported_python_is_declared():
    project = pyproject()["project"]
    oldest = re.fullmatch(r">=3\.(\d+)", project["requires-python"]).group(1)
    declared = {c.rsplit(" ", 1)[-1] for c in project["classifiers"]
                if c.startswith("Programming Language :: Python :: 3.")}
    assert declared == {f"3.{v}" for v in range(int(oldest), 14)}


def test_every_install_line_names_pycuttle():
    """`pip install "cuttle[...]"` would install the unrelated `cuttle` of the index."""
    files = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
             *sorted((ROOT / "cuttle").rglob("*.py")), *sorted((ROOT / "benchmarks").glob("*.py")),
             *sorted((ROOT / "examples").glob("*.py"))]
    wrong = re.compile(r"(?<![\w.-])cuttle\[|pip install (-U )?cuttle\b")
    bad = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in files
           for m in wrong.finditer(p.read_text(encoding="utf-8"))]
    assert not bad, bad
    assert 'pip install "pycuttle[dask]"' in (ROOT / "README.md").read_text(encoding="utf-8")


def readme_setup():
    """The README's two set-up commands (the first code block of 'Install, run, test')."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Install, run, test"):]
    block = section.split("```")[1]
    return [line for line in block.splitlines() if line.strip()]


def test_the_readme_set_up_is_two_commands_in_a_virtual_environment():
    install, test = readme_setup()
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && ")
    assert 'pip install -e ".[test]"' in install and "cuttle simulate" in install
    # every test file on a worker of its own core, each file's tests in order (the
    # differential tests' coverage check reads the chunks before it)
    assert test == ". .venv/bin/activate && python -m pytest -n auto --dist loadfile"
    assert "chromium" in (ROOT / "README.md").read_text(encoding="utf-8").split("```")[0]


@pytest.mark.skipif(not (ROOT / ".git").exists(),
                    reason="not a git checkout: an unpacked sdist has no .ci/")
def test_ci_runs_the_readme_set_up():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "readme_setup" in ci and "python -m build" in ci and "twine check" in ci


def test_pytest_says_why_each_test_was_skipped():
    addopts = pyproject()["tool"]["pytest"]["ini_options"]["addopts"].split()
    assert "-rs" in addopts or any(o.startswith("-r") and "s" in o for o in addopts)
