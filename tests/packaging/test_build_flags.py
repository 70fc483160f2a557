"""setup.py's compiler flags: each optional flag (OpenMP's -fopenmp, -mpopcnt) is tried
with the compiler the build will run, and left out when that compiler rejects it, so the
build falls back (a serial core, a slower bit count) instead of failing on every module;
before any of that, a build without a working C compiler stops with one message saying
what to install, and only a build needs one (not the sdist or the metadata).  setup.py
is run here with setuptools' setup() stubbed out: it only picks its flags, or once as a
process whose build stops at that check."""

import os
import runpy
import shutil
import subprocess
import sys
import sysconfig

import pytest
from support.packaging import ROOT

pytest.importorskip("Cython")
GCC = shutil.which("gcc")
needs_gcc = pytest.mark.skipif(GCC is None, reason="needs gcc on PATH")
# what the message of a missing compiler names, for each system
ADVICE = ("build-essential python3-dev", "gcc python3-devel", "xcode-select --install",
          "Microsoft C++ Build Tools")


def load_setup(monkeypatch, cc, **env):
    """setup.py's names with CC=cc (and `env`), its setup() call doing nothing."""
    import setuptools
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    monkeypatch.setenv("CC", cc)
    for name in ("CUTTLE_NO_OPENMP", "CUTTLE_NO_POPCNT", "CUTTLE_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "setup.py"), run_name="setup_flags")


def build_flags(monkeypatch, cc, **env):
    """(compile args, link args) that setup.py chooses with CC=cc (and `env`)."""
    compile_args, link_args, _ = load_setup(monkeypatch, cc, **env)["build_flags"]()
    return compile_args, link_args


def strict_compiler(tmp_path, rejects):
    """A C compiler (gcc underneath) that rejects the flags `rejects`, as a compiler
    without OpenMP or for another architecture does."""
    path = tmp_path / "strict-cc"
    cases = "|".join(rejects)
    path.write_text("#!/bin/sh\n"
                    f'for a in "$@"; do case "$a" in {cases}) echo "strict-cc: error: '
                    f"unrecognized command-line option '$a'\" >&2; exit 1;; esac; done\n"
                    f'exec {GCC} "$@"\n')
    path.chmod(0o755)
    return str(path)


@needs_gcc
def test_a_compiler_command_of_several_words_keeps_openmp(monkeypatch):
    # setuptools runs CC="ccache gcc" or CC="gcc -pthread" as words; the OpenMP check
    # ran the whole string as one program's name, failed, and built a serial core
    compile_args, link_args = build_flags(monkeypatch, GCC)
    if "-fopenmp" not in compile_args:
        pytest.skip("gcc here has no OpenMP")
    compile_args, link_args = build_flags(monkeypatch, f"{GCC} -pthread")
    assert "-fopenmp" in compile_args and "-fopenmp" in link_args


@needs_gcc
def test_a_flag_the_compiler_rejects_is_left_out(monkeypatch, tmp_path, capfd):
    cc = strict_compiler(tmp_path, ["-mpopcnt", "-fopenmp"])
    compile_args, link_args = build_flags(monkeypatch, cc)
    assert "-mpopcnt" not in compile_args
    assert "-fopenmp" not in compile_args + link_args
    assert "serial" in capfd.readouterr().err


@needs_gcc
def test_the_build_folders_leave_no_trace_in_the_compiled_code(monkeypatch, tmp_path):
    # the wheel's modules carry debug information (Python's CFLAGS have -g), which named
    # the folder the build ran in and the one numpy's headers were in (under pip and
    # `python -m build`, both temporary), so that two builds of one sdist gave different
    # modules.  The same C compiled in two folders must give the same object, naming
    # neither folder.
    import numpy
    numpy_site = os.path.dirname(os.path.dirname(numpy.__file__))
    source = ("#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION\n"
              "#include <Python.h>\n#include <numpy/arrayobject.h>\n"
              "int ndim(PyArrayObject *a) { return PyArray_NDIM(a); }\n")
    includes = ["-I", sysconfig.get_paths()["include"], "-I", numpy.get_include()]
    objects = []
    for name in ("a", "b"):
        folder = tmp_path / name / "pycuttle-0.1.0"
        folder.mkdir(parents=True)
        (folder / "m.c").write_text(source)
        monkeypatch.chdir(folder)
        compile_args, _ = build_flags(monkeypatch, GCC)
        subprocess.run([GCC, "-g", *includes, *compile_args, "-c", "m.c", "-o", "m.o"],
                       check=True)
        objects.append((folder / "m.o").read_bytes())
        assert str(folder).encode() not in objects[-1]
        assert numpy_site.encode() not in objects[-1]
    assert objects[0] == objects[1]


@needs_gcc
def test_a_packager_can_leave_out_the_build_machines_instructions(monkeypatch):
    # -mpopcnt is chosen by the build machine's processor, and comes after $CFLAGS (so
    # CFLAGS=-mno-popcnt cannot undo it): a binary built for other machines needs a way
    # to leave it out, as a serial core has CUTTLE_NO_OPENMP
    compile_args, link_args = build_flags(monkeypatch, GCC, CUTTLE_NO_POPCNT="1")
    assert not any("popcnt" in flag for flag in compile_args + link_args)
    compile_args, link_args = build_flags(monkeypatch, GCC, CUTTLE_NO_OPENMP="1")
    assert "-fopenmp" not in compile_args + link_args


@needs_gcc
def test_the_core_says_how_it_was_built(monkeypatch):
    # `cuttle --version` reports it: a core that lost OpenMP (a flag check gone wrong,
    # as with CC="ccache gcc" once) ran every `threads` on one core without a word.
    # (Built here by this setup.py with the default compiler and no CUTTLE_NO_* set.)
    from cuttle._core import BUILD
    from cuttle.cli import version_text
    compile_args, _ = build_flags(monkeypatch, sysconfig.get_config_var("CC") or GCC)
    assert BUILD == {"openmp": "-fopenmp" in compile_args,
                     "popcnt": "-mpopcnt" in compile_args}
    text = version_text()
    assert ("(native core: OpenMP" in text) == BUILD["openmp"]
    assert ("popcnt)" in text) == BUILD["popcnt"]


def setup_py(*args, cc):
    """setup.py run as a process in the checkout with CC=cc: (status, its output)."""
    env = dict(os.environ, CC=cc)
    run = subprocess.run([sys.executable, "setup.py", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    return run.returncode, run.stdout + run.stderr


def test_a_missing_compiler_is_named_with_what_to_install(monkeypatch, capfd):
    problem = load_setup(monkeypatch, "no-such-cc")["toolchain_problem"]()
    assert problem.startswith("cuttle: cannot build the native core: the C compiler "
                              "'no-such-cc' was not found."), problem
    for advice in ADVICE:
        assert advice in problem, advice
    assert capfd.readouterr().err == ""          # (the check itself prints nothing)


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script as the compiler")
def test_a_compiler_that_cannot_build_a_program_is_named(monkeypatch, tmp_path):
    cc = tmp_path / "broken-cc"
    cc.write_text("#!/bin/sh\necho 'broken-cc: note: searching' >&2\n"
                  "echo 'broken-cc: fatal error: cannot find crt1.o' >&2\nexit 1\n")
    cc.chmod(0o755)
    problem = load_setup(monkeypatch, str(cc))["toolchain_problem"]()
    assert f"the C compiler '{cc}' cannot build a program: broken-cc: fatal error: cannot " \
           f"find crt1.o." in problem, problem
    assert all(advice in problem for advice in ADVICE), problem


@needs_gcc
def test_a_working_compiler_is_no_problem(monkeypatch):
    assert load_setup(monkeypatch, GCC)["toolchain_problem"]() is None
    assert load_setup(monkeypatch, f"{GCC} -pthread")["toolchain_problem"]() is None


def test_a_build_without_a_compiler_stops_first_with_the_message(tmp_path):
    # the build tried OpenMP and -mpopcnt first, printing that it fell back from each,
    # then failed on the first module with "No such file or directory: 'no-such-cc'"
    status, out = setup_py("build_ext", "--build-temp", str(tmp_path / "temp"),
                           "--build-lib", str(tmp_path / "lib"), cc="no-such-cc")
    assert status == 1, out
    assert "the C compiler 'no-such-cc' was not found" in out, out
    assert all(advice in out for advice in ADVICE), out
    for fallback in ("OpenMP", "popcnt", "No such file or directory", "Traceback"):
        assert fallback not in out, out
    assert not (tmp_path / "temp").exists() and not (tmp_path / "lib").exists()


def test_the_metadata_needs_no_compiler(tmp_path):
    # (pip's first step with an sdist, and `python -m build --sdist`, run egg_info,
    # which sets up build_ext to list the sources)
    status, out = setup_py("-q", "egg_info", "--egg-base", str(tmp_path), cc="no-such-cc")
    assert status == 0, out
    assert (tmp_path / "pycuttle.egg-info" / "PKG-INFO").is_file()
    assert "cannot build" not in out and "OpenMP" not in out, out
