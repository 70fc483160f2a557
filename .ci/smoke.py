"""The built artifacts, checked from a fresh virtual environment away from the source
tree (run by .ci/run with that environment's python, in an empty folder):

    python .ci/smoke.py CHECKOUT DIST

- the sdist holds everything the build needs (setup.py, pyproject.toml, every .pyx and
  .pxd of the checkout, README, LICENSE, CHANGELOG), docs/ and every file the README
  links to, and no build outputs;
- the wheel holds the compiled core, the .pxd contracts, py.typed and the browser app's
  static files;
- the installed package is the wheel's (site-packages, not the checkout), its metadata
  says pycuttle at the package's version, the compiled core loads from site-packages,
  a game plays, a short simulation runs, and the `cuttle` command works.
"""

import importlib.metadata
import os
import pathlib
import re
import subprocess
import sys
import sysconfig
import tarfile
import zipfile

checkout, dist = (pathlib.Path(a).resolve() for a in sys.argv[1:3])
site = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
platsite = pathlib.Path(sysconfig.get_paths()["platlib"]).resolve()
checks = []


def check(ok, what):
    checks.append(what)
    if not ok:
        sys.exit(f"smoke test FAILED: {what}")


# -- the sdist -----------------------------------------------------------------------
tracked = subprocess.run(["git", "-C", str(checkout), "ls-files", "cuttle"], check=True,
                         capture_output=True, text=True).stdout.split()
sources = {p for p in tracked if p.endswith((".pyx", ".pxd", ".py", "py.typed"))}
(sdist,) = dist.glob("pycuttle-*.tar.gz")
with tarfile.open(sdist) as tar:
    names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
need = {"setup.py", "pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in"}
check(need <= names, f"the sdist holds {', '.join(sorted(need))}: missing {need - names}")
check(sources <= names, f"the sdist holds every source of cuttle/: missing {sources - names}")
# (the docs a wheel lacks, and every file the README, the package's long description,
# links to: the sdist is where its reader finds them)
docs = set(subprocess.run(["git", "-C", str(checkout), "ls-files", "docs"], check=True,
                          capture_output=True, text=True).stdout.split())
check(docs and docs <= names, f"the sdist holds the {len(docs)} files of docs/: missing "
                              f"{sorted(docs - names)[:5]}")
readme = (checkout / "README.md").read_text(encoding="utf-8")
linked = set(re.findall(r"\]\((?![a-z]+:)([^)#\s]+)", readme))
check(linked and linked <= names, f"the sdist holds the {len(linked)} files the README links "
                                  f"to: missing {sorted(linked - names)}")
outputs = sorted(n for n in names if n.endswith((".c", ".so", ".pyd")))
check(not outputs, f"the sdist holds no build outputs: {outputs[:5]}")

# -- the wheel -----------------------------------------------------------------------
(wheel,) = dist.glob("pycuttle-*.whl")
with zipfile.ZipFile(wheel) as z:
    files = set(z.namelist())
pyx = sorted(p for p in sources if p.endswith(".pyx"))
compiled = [p for p in pyx if not any(f.startswith(p[:-4] + ".") and f.endswith(".so")
                                      for f in files)]
check(not compiled, f"the wheel holds a compiled module for each of the {len(pyx)} .pyx: "
                    f"missing {compiled}")
pxd = {p for p in sources if p.endswith(".pxd")}
check(pxd <= files, f"the wheel holds the {len(pxd)} .pxd contracts: missing {pxd - files}")
check("cuttle/py.typed" in files, "the wheel holds py.typed")
static = {p for p in tracked if p.startswith("cuttle/web/static/")}
check(static and static <= files,
      f"the wheel holds the browser app's {len(static)} files: missing {static - files}")

# -- installed -----------------------------------------------------------------------
os.chdir(os.environ.get("TMPDIR", "/tmp"))
import cuttle  # noqa: E402
import cuttle._core  # noqa: E402

package = pathlib.Path(cuttle.__file__).resolve().parent
check(package.parent in (site, platsite) and checkout not in package.parents,
      f"cuttle is imported from site-packages ({package})")
core = pathlib.Path(cuttle._core.__file__).resolve()
check(core.parent == package and core.suffix in (".so", ".pyd"),
      f"the compiled core loads from site-packages ({core.name})")
check(importlib.metadata.version("pycuttle") == cuttle.__version__,
      f"the installed distribution is pycuttle {cuttle.__version__}")
for p in sorted(pxd):
    check((package.parent / p).is_file(), f"{p} is installed")
check((package / "py.typed").is_file(), "py.typed is installed")

g = cuttle.Game(seed=1)
g.play("points 7H")
check(g.score(0) == 7 and str(g.undo()) == "points 7H", "a game plays and undoes a move")
res = cuttle.simulate(2000, players=("random", "greedy"), seed=1)
wins = res.summary().win_rate("B")
check(res.summary().n == 2000 and 0.5 < wins[0] < 1,
      f"a short simulation runs (greedy wins {wins[0]:.1%} of 2,000 games against random)")

command = pathlib.Path(sys.executable).parent / "cuttle"
version = subprocess.run([str(command), "--version"], capture_output=True, text=True)
check(version.stdout.startswith(f"cuttle {cuttle.__version__} (native core: OpenMP"),
      "`cuttle --version` (a core built with OpenMP)")
run = subprocess.run([str(command), "simulate", "-n", "1000", "--seed", "1", "--threads", "2"],
                     capture_output=True, text=True)
check(run.returncode == 0 and "1,000 games" in run.stdout, "`cuttle simulate -n 1000` runs")

print(f"smoke test passed ({len(checks)} checks): {sdist.name}, {wheel.name}, installed in "
      f"{site}")
