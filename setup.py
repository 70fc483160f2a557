"""Build the native core.  `pip install .` compiles the native modules (NATIVE_MODULES
below; docs/architecture.md says what each owns) with OpenMP when the compiler supports
it (a serial build otherwise; CUTTLE_NO_OPENMP=1 asks for one).  CUTTLE_DEBUG=asan builds
with AddressSanitizer and UndefinedBehaviorSanitizer as well (run it with .ci/asan).
CUTTLE_DEBUG=1 builds with bounds and wraparound checks on and no optimisation, for
chasing memory bugs.  CUTTLE_NO_POPCNT=1: see cpu_flags.  Without a C compiler that
builds a program the build stops before anything else, saying what to install
(toolchain_problem)."""
import functools
import os
import platform
import shutil
import shlex
import subprocess
import sys
import sysconfig
import tempfile

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DEBUG = os.environ.get("CUTTLE_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("CUTTLE_DEBUG", "") == "asan"
SANITIZERS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer",
              "-fno-sanitize-recover=undefined"]


def compiler():
    """The C compiler the build runs, as setuptools runs it: $CC, else the one Python was
    built with, split into words (CC="ccache gcc", "gcc -pthread")."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def compile_error(flags, source="int main(void){return 0;}\n"):
    """None if the compiler builds and links `source` with `flags`, else why not: the
    compiler's error output, or that the compiler cannot be run at all."""
    tmp = tempfile.mkdtemp()
    try:
        src = os.path.join(tmp, "t.c")
        with open(src, "w") as f:
            f.write(source)
        run = subprocess.run([*compiler(), *flags, src, "-o", os.path.join(tmp, "t")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        return f"the C compiler {compiler()[0]!r} was not found"
    except OSError as e:
        return f"the C compiler {compiler()[0]!r} cannot be run ({e.strerror or e})"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return None if run.returncode == 0 else (run.stderr.strip() or f"status {run.returncode}")


def compiles(flags, source="int main(void){return 0;}\n"):
    """Whether the compiler builds and links `source` with `flags`.  Each optional flag
    is tried first: one the compiler rejects would fail the build of every module."""
    return compile_error(flags, source) is None


# What to install for a build, by system (toolchain_problem's advice).
TOOLCHAIN_ADVICE = """\
Install a C compiler and the Python headers, then install pycuttle again:
  Debian, Ubuntu:  sudo apt-get install build-essential python3-dev
  Fedora, RHEL:    sudo dnf install gcc python3-devel
  macOS:           xcode-select --install   (Xcode's command line tools)
  Windows:         Microsoft C++ Build Tools (MSVC), with "Desktop development with C++"
(The compiler is $CC if set, else the one Python was built with.)"""


def toolchain_problem():
    """None if the C compiler the build runs (`compiler`) builds a program, else the one
    message the build stops with: what went wrong and what to install.  Checked before
    the optional flags are tried, whose fallbacks would otherwise speak first (on
    Windows setuptools finds MSVC itself, and says so when it is missing)."""
    if sys.platform == "win32":
        return None
    error = compile_error([])
    if error is None:
        return None
    if not error.startswith("the C compiler"):
        last = error.splitlines()[-1].strip()
        error = f"the C compiler {' '.join(compiler())!r} cannot build a program: {last}"
    return f"cuttle: cannot build the native core: {error}.\n{TOOLCHAIN_ADVICE}"


def openmp_flags():
    """Return (compile, link) flags for OpenMP, or ([], []) if the compiler lacks it."""
    if os.environ.get("CUTTLE_NO_OPENMP"):
        return [], []
    if sys.platform == "win32":
        return ["/openmp"], []
    flag = "-fopenmp"
    if not compiles([flag], "#include <omp.h>\n"
                            "int main(void){return omp_get_max_threads() < 1;}\n"):
        print(f"cuttle: OpenMP not available with {' '.join(compiler())}, building the "
              "serial core", file=sys.stderr)
        return [], []
    return [flag], [flag]


def cpu_flags():
    """-mpopcnt on x86-64 machines that have the instruction (and a compiler that takes
    the flag): the core counts bits on every move, and without it gcc calls a slow
    library routine.  The build machine's processor decides, and the flag comes after
    $CFLAGS: CUTTLE_NO_POPCNT=1 leaves it out of a binary built for other machines."""
    if os.environ.get("CUTTLE_NO_POPCNT") or sys.platform == "win32" \
            or platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    try:
        with open("/proc/cpuinfo") as f:
            if " popcnt" not in f.read():
                return []
    except OSError:
        return []
    if not compiles(["-mpopcnt"]):
        print("cuttle: the compiler rejects -mpopcnt, building without it", file=sys.stderr)
        return []
    return ["-mpopcnt"]


def path_flags():
    """The folders a build runs in and finds numpy's headers in (under pip and `python -m
    build`, both temporary) written as "." and "site-packages" in the modules' debug
    information (Python's CFLAGS have -g), so that two builds of one sdist give the same
    files.  (Not in debug builds, whose absolute paths let a debugger find the sources.)"""
    if sys.platform == "win32":
        return []
    numpy_site = os.path.dirname(os.path.dirname(numpy.__file__))
    for option in ("-ffile-prefix-map", "-fdebug-prefix-map"):   # (gcc 8, clang 10; older)
        # (the last that matches a path applies: numpy may be installed in the folder)
        flags = [f"{option}={os.getcwd()}=.", f"{option}={numpy_site}=site-packages"]
        if compiles(flags):
            return flags
    return []


@functools.lru_cache(maxsize=None)     # (probed once, however often build_ext is set up)
def build_flags():
    """(compile args, link args, whether OpenMP is on) for the native modules: probed
    when they are built (an sdist or the metadata need no compiler)."""
    omp_compile, omp_link = openmp_flags()
    compile_args = ((["-O1" if SANITIZE else "-O0", "-g"] if DEBUG else ["-O3"]) + omp_compile
                    + cpu_flags() + ([] if DEBUG else path_flags()))
    link_args = omp_link + (SANITIZERS if SANITIZE else [])
    if SANITIZE:
        compile_args += SANITIZERS
    if sys.platform != "win32":
        compile_args.append("-Wno-unreachable-code")
    return compile_args, link_args, bool(omp_compile)


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "nonecheck": DEBUG,
}

# The native core, one extension module per concern (each .pyx has its .pxd contract).
NATIVE_MODULES = ("_signals", "_engine", "_checks", "_hidden", "_sampler", "_greedy", "_weights",
                  "_expert", "_cardsai", "_playout", "_infer", "_search", "_policies", "_core", "_decide",
                  "_play", "_rollouts", "_actions", "_observe", "_vector", "_review")

extensions = [
    Extension(
        f"cuttle.{name}",
        [f"cuttle/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )
    for name in NATIVE_MODULES
]


def c_folder(openmp):
    """Where the generated C goes: one folder per interpreter, Cython, numpy and build
    mode, so that no build compiles C that Cython wrote for other settings (CI builds the
    oldest and newest Python side by side in one checkout; a debug build follows a
    release one)."""
    import Cython
    mode = "asan" if SANITIZE else ("debug" if DEBUG else "release")
    return os.path.join("build", "cython", f"py{sys.version_info[0]}{sys.version_info[1]}-"
                        f"cython{Cython.__version__}-numpy{numpy.__version__}-{mode}-"
                        f"{'omp' if openmp else 'serial'}")


class BuildExt(build_ext):
    """Check the compiler, choose the flags and cythonize when the extensions are built,
    not whenever setup.py runs or build_ext is set up (the sdist and the metadata set it
    up to list the sources): those need no C compiler, and the sdist carries the .pyx,
    never generated C."""

    def run(self):
        problem = toolchain_problem()
        if problem:
            sys.exit(problem)
        compile_args, link_args, openmp = build_flags()
        for ext in self.extensions:
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
        generated = {ext.name: ext for ext in cythonize(
            self.extensions, compiler_directives=directives, nthreads=JOBS,
            build_dir=c_folder(openmp), compile_time_env={"HAVE_OPENMP": openmp})}
        assert set(generated) == {ext.name for ext in self.extensions}, sorted(generated)
        for ext in self.extensions:     # (keeping the fields setuptools set on them)
            vars(ext).update((k, v) for k, v in vars(generated[ext.name]).items()
                             if not k.startswith("_"))
        super().run()


# Cythonize and compile the modules on every core: pip runs build_ext without -j.
JOBS = os.cpu_count() or 1
setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt},
      options={"build_ext": {"parallel": JOBS}})
