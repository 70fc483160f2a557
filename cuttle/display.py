"""The hook between results and their renderers.

Result classes (`Summary`, `ComparisonResult`, `Analysis`, `AtlasResult`, ...) and
`Game` know nothing of text tables, JSON, CSV, markdown, HTML, plots or SVG: their
``__str__``, ``as_dict``, ``to_csv``, ``markdown``, ``plot``, ``_repr_html_`` and
``_repr_svg_`` call ``render(form, self, ...)``, and each renderer registers what it
draws with ``@renders(form, cls)``.  So renderers import results, never the reverse;
``cuttle/__init__.py`` imports the renderers (`cuttle.render`), which registers them
before any result exists.

A new kind of result registers its renderers the same way (see cuttle/render/).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["FORMS", "render", "renders"]

# text: the text table (str); data: the JSON-ready dict (as_dict); csv: CSV rows written
# to a path or file; markdown; html: an HTML fragment (_repr_html_); plot: a matplotlib
# figure saved to a path; svg: an SVG picture (_repr_svg_).
FORMS = ("text", "data", "csv", "markdown", "html", "plot", "svg")

_RENDERERS: dict[tuple[str, type], Callable[..., Any]] = {}


def renders(form: str, *classes: type) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register the decorated function as the `form` renderer of `classes`."""
    if form not in FORMS:
        raise ValueError(f"unknown form {form!r}; valid: {', '.join(FORMS)}")

    def register(func):
        for cls in classes:
            _RENDERERS[(form, cls)] = func
        return func
    return register


def render(form: str, obj: object, *args: Any, **kwargs: Any) -> Any:
    """`obj` in `form`, by the renderer registered for its class (or a base class)."""
    for cls in type(obj).__mro__:
        func = _RENDERERS.get((form, cls))
        if func is not None:
            return func(obj, *args, **kwargs)
    raise TypeError(f"no {form} renderer for {type(obj).__name__} (renderers register "
                    f"when cuttle.render is imported)")
