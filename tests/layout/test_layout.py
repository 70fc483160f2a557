"""The layout as a map: no import cycle among cuttle's modules (counting imports inside
functions: a cycle hidden in a function is still a cycle), and no long function.

The import graph is read from the source with `ast`, not by importing: every
``import``/``from ... import`` of a module, at any depth, except those under ``if
TYPE_CHECKING:`` (annotations only).  Relative imports are resolved; importing
``a.b.c`` also runs the packages ``a`` and ``a.b`` (unless the importer is inside them:
they are being initialized already), and ``from pkg import name`` depends on the
submodule ``pkg.name`` when there is one, else on ``pkg`` itself.  The native modules'
Python-level imports (``.pyx``, outside ``cimport``) are read line by line.
"""

import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_LINES = 80


def modules(root=ROOT):
    """{module name: (path, is a package)} of every .py and .pyx file of root/cuttle/."""
    out = {}
    for folder, _, files in os.walk(os.path.join(root, "cuttle")):
        for f in files:
            if f.endswith((".py", ".pyx")):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, root).rsplit(".", 1)[0].replace(os.sep, ".")
                package = name.endswith(".__init__")
                out[name[:-len(".__init__")] if package else name] = (path, package)
    return out


def _type_checking(test):
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
           (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree):
    """Every Import/ImportFrom node, at any depth, outside `if TYPE_CHECKING:` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        if isinstance(node, ast.If) and _type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


_PYX_IMPORT = re.compile(r"^\s*(?:from\s+(\S+)\s+import\s+(.+)|import\s+(.+))$")


def imported(name, path, package):
    """[(imported module, names taken from it or None), line] of one module."""
    here = name if package else name.rpartition(".")[0]
    if path.endswith(".pyx"):
        out = []
        for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
            m = _PYX_IMPORT.match(line)
            if m and "cimport" not in line:
                if m.group(1):
                    out.append(((m.group(1), [n.strip().split(" as ")[0]
                                              for n in m.group(2).split(",")]), lineno))
                else:
                    out += [((n.strip().split(" as ")[0], None), lineno)
                            for n in m.group(3).split(",")]
        return out
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = []
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            out += [((a.name, None), node.lineno) for a in node.names]
        else:
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module
            out.append(((target, [a.name for a in node.names]), node.lineno))
    return out


def import_graph(root=ROOT):
    """{module: {imported module: line of the import}} among cuttle's modules."""
    mods = modules(root)
    graph = {}
    for name, (path, package) in mods.items():
        deps = {}

        def add(target, line, ancestor_too=False):
            inside = name.startswith(target + ".")      # a package being initialized
            if target in mods and target != name and (ancestor_too or not inside):
                deps.setdefault(target, line)

        for (target, names), line in imported(name, path, package):
            parts = target.split(".")
            for i in range(1, len(parts) + 1):       # the packages on the way, the module
                add(".".join(parts[:i]), line)
            for n in names or ():
                if f"{target}.{n}" in mods:
                    add(f"{target}.{n}", line)      # a submodule
                else:
                    add(target, line, ancestor_too=True)   # a name the module defines
        graph[name] = deps
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan), each with one
    cycle through it spelled out."""
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_spell(graph, comp) for comp in found]


def _spell(graph, comp):
    """One cycle through a component, as 'a (line 3) -> b (line 9) -> a'."""
    start = min(comp)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v]):
            if w == start:
                path = paths[v] + [start]
                return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(path, path[1:])) \
                    + f" -> {start}"
            if w in comp and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return ", ".join(sorted(comp))


def test_no_import_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles among cuttle's modules:\n" + "\n".join(found)


def test_the_cycle_check_finds_cycles(tmp_path):
    # the check must see a cycle hidden in a function, through a package's __init__ and
    # through `from .. import name`, and must not see one under TYPE_CHECKING
    pkg = tmp_path / "cuttle"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("from .b import g\n")
    (pkg / "sub" / "b.py").write_text("from .. import a\ndef g(): pass\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from . import d\n")
    (pkg / "d.py").write_text("from . import c\n")
    found = cycles(import_graph(str(tmp_path)))
    assert len(found) == 1 and "cuttle.a" in found[0] and "cuttle.sub.b" in found[0]
    assert "cuttle.c" not in found[0]


def _pyx_functions(path):
    """(name, first line, length) of every def/cdef/cpdef function of a .pyx file: from
    its header to its last indented line."""
    lines = open(path, encoding="utf-8").read().split("\n")
    head = re.compile(r"^(\s*)(?:async\s+)?(?:cp?def|def)\s+(?:[\w\[\]*, ]+?\s+)?(\w+)\s*\(")
    out = []
    for i, line in enumerate(lines):
        m = head.match(line)
        if not m or re.match(r"^\s*cdef\s+(class|struct|enum|extern|inline\s+\w+\s+\w+\s*$)",
                             line):
            continue
        indent = len(m.group(1))
        end = i
        for j in range(i + 1, len(lines)):
            text = lines[j]
            if text.strip() and not text.lstrip().startswith("#"):
                if len(text) - len(text.lstrip()) <= indent:
                    break
                end = j
        out.append((m.group(2), i + 1, end - i + 1))
    return out


def _long_functions(pyx=False):
    found = []
    for name, (path, _) in sorted(modules().items()):
        if path.endswith(".pyx"):
            if pyx:
                found += [f"{name}.{fn} (line {line}): {n} lines"
                          for fn, line, n in _pyx_functions(path) if n > MAX_LINES]
            continue
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_LINES:
                    found.append(f"{name}.{node.name} (line {node.lineno}): {n} lines")
    return found


def test_no_function_is_over_80_lines():
    assert not _long_functions(), "\n".join(_long_functions())


def test_no_native_function_is_over_80_lines():
    found = _long_functions(pyx=True)
    assert not found, "\n".join(found)
