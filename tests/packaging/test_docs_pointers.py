"""What a wheel's user reads names no docs/ page without saying where it is: a wheel
holds the package alone, and docs/ comes with the source distribution.  The package's
strings other than docstrings (messages, help, the text of outputs; docstrings are read
with the source and the API reference) and the browser app's files are checked; the
commands' help is checked as argparse holds it in tests/cli/test_help.py."""

import ast

from support.packaging import ROOT, unplaced_docs


def docstrings(tree):
    """The ids of the docstring nodes of a module's tree."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def strings(path):
    """(line, text) of every string of a module but its docstrings; an f-string's text
    with its replacement fields as {}."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree)
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}"
                                       for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip and id(node) not in inner:
            yield node.lineno, node.value


def test_no_message_points_at_docs_without_saying_where_they_are():
    bad = [f"{path.relative_to(ROOT)}:{line}: {unplaced_docs(text)}"
           for path in sorted((ROOT / "cuttle").rglob("*.py"))
           for line, text in strings(path) if unplaced_docs(text)]
    bad += [f"{path.relative_to(ROOT)}: {unplaced_docs(path.read_text(encoding='utf-8'))}"
            for path in sorted((ROOT / "cuttle" / "web" / "static").rglob("*"))
            if path.is_file() and unplaced_docs(path.read_text(encoding="utf-8"))]
    assert not bad, bad


def test_the_scan_sees_messages_and_skips_docstrings(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""See docs/rules.md."""\n'
                      'def f(x):\n'
                      '    """docs/rules.md again."""\n'
                      '    raise ValueError(f"bad {x}; see docs/rules.md")\n'
                      'NOTE = ("a note; docs/review.md "\n'
                      '        "in the source distribution")\n'
                      'OTHER = "see docs/record.md"\n', encoding="utf-8")
    found = {line: unplaced_docs(text) for line, text in strings(module) if unplaced_docs(text)}
    assert found == {4: ["docs/rules.md"], 7: ["docs/record.md"]}
