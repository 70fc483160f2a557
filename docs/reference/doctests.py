"""A griffe extension of the API reference (mkdocs.yml loads it): the docstrings' doctest
examples (`>>>` lines and their output, up to a blank line) become Python console code
blocks; Markdown would read their `>>>` as nested block quotes."""

import griffe


class Doctests(griffe.Extension):
    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)


def fence(text):
    out, block = [], False
    for line in text.splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not block:
            indent = line[:len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            block = True
        elif block and not line.strip():
            out.append(f"{indent}```")
            block = False
        out.append(line)
    if block:
        out.append(f"{indent}```")
    return "\n".join(out)
