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
