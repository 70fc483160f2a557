"""pyproject.toml as the packaging tests read it."""

import pathlib
import re

try:
    import tomllib
except ModuleNotFoundError:          # Python < 3.11: pytest brings tomli there
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def pyproject():
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def extras():
    """{extra: [requirement, ...]} with self-references (pycuttle[a,b]) expanded."""
    raw = pyproject()["project"]["optional-dependencies"]
    name = pyproject()["project"]["name"]

    def expand(extra, seen=()):
        out = []
        for req in raw[extra]:
            m = re.fullmatch(rf"{re.escape(name)}\[([^\]]+)\]", req.strip())
            if m:
                for sub in m.group(1).split(","):
                    assert sub.strip() not in seen, f"extra {extra} includes itself"
                    out += expand(sub.strip(), (*seen, extra))
            else:
                out.append(req)
        return out

    return {extra: expand(extra) for extra in raw}


# A docs/ path in text a wheel's user reads (help, messages) says where the file is: a
# wheel holds no docs/ folder.
DOCS_PLACE = " in the source distribution"
DOCS_PATH = re.compile(r"docs/[\w./#-]*[\w#-](?![\w./#-])")


def unplaced_docs(text):
    """The docs/ paths of `text` that do not say where they live, or that name no file of
    docs/ (whitespace is normalised: help text is wrapped)."""
    text = " ".join(text.split())
    bad = []
    for m in DOCS_PATH.finditer(text):
        path = m.group(0).partition("#")[0]
        if not text.startswith(DOCS_PLACE, m.end()) or not (ROOT / path).is_file():
            bad.append(m.group(0))
    return bad
