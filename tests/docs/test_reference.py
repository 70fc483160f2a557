"""The API reference (mkdocs.yml, docs/reference/): it builds with warnings as errors,
and every public name is in it: each name of `cuttle.__all__` in the package's table,
each public module on a page, each public class, function, method and property of those
modules an entry of the built site."""

import html.parser
import pathlib
import re
import subprocess
import sys

import pytest

import cuttle
from support.public import PUBLIC_MODULES, load, public_members

ROOT = pathlib.Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"


def directives():
    """{module: page} of the `::: module` blocks of the reference's pages."""
    found = {}
    for page in sorted(REFERENCE.glob("*.md")):
        for name in re.findall(r"^::: *(\S+)", page.read_text(encoding="utf-8"), re.M):
            assert name not in found, f"{name} is documented twice: {found[name]}, {page.name}"
            found[name] = page.name
    return found


def test_every_public_module_has_its_place_in_the_reference():
    pages = directives()
    missing = [m for m in PUBLIC_MODULES if m not in pages]
    assert not missing, f"modules missing from docs/reference/*.md: {', '.join(missing)}"
    assert not set(pages) - set(PUBLIC_MODULES), "a page documents a module that is gone"


def test_every_package_name_is_in_the_package_table():
    table = (REFERENCE / "index.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    assert sorted(rows) == sorted(cuttle.__all__)


class Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(v for k, v in attrs if k == "id" and v)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The ids of the built site's elements (mkdocstrings gives each entry its path)."""
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings_handlers.python",
                        reason="mkdocstrings is not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                          "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}{run.stderr}"
    parser = Ids()
    for page in out.rglob("*.html"):
        parser.feed(page.read_text(encoding="utf-8"))
    return parser.ids


def test_the_reference_builds_without_warnings_and_has_every_module(site):
    missing = [m for m in PUBLIC_MODULES if m not in site]
    assert not missing, f"no entry for {', '.join(missing)}"


def canonical(obj):
    """Where an alias (`analyze = analyse`) is documented: under its own name."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else None


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_every_public_name_has_an_entry(site, name):
    missing = [qual for qual, obj in public_members(load(name))
               if qual not in site and canonical(obj) not in site]
    assert not missing, f"not in the reference: {', '.join(missing)}"


def test_every_name_of_the_package_has_an_entry(site):
    for name in cuttle.__all__:
        if name == "__version__":
            continue
        obj = getattr(cuttle, name)
        target = canonical(obj) if callable(obj) else f"cuttle.cards.{name}"   # CARDS
        assert target in site, f"cuttle.{name}: no entry {target}"
