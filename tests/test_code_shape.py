"""The shape of the code a maintainer reads: no function in src/ over 100 lines (docstring and
decorators' lines included), so that each can be held in one's head."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "explodice"
MAX_LINES = 100


def long_functions(source: str, limit: int = MAX_LINES) -> list[tuple[str, int, int]]:
    """(name, first line, length) of each function or method of ``source`` longer than
    ``limit`` lines, counted from its first decorator to its last line."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = (node.end_lineno or node.lineno) - first + 1
            if length > limit:
                out.append((node.name, first, length))
    return out


def test_the_count_reads_a_function_from_its_decorator_to_its_last_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(98))
    assert long_functions(f"def f():\n{body}") == []  # 99 lines
    assert long_functions(f"def f():\n{body}    return 1\n") == []  # 100 lines
    assert long_functions(f"@a\ndef f():\n{body}    return 1\n") == [("f", 1, 101)]
    nested = (
        f"class C:\n    def m(self):\n    {body.replace(chr(10), chr(10) + '    ')}    return 1\n"
    )
    assert [(n, length) for n, _, length in long_functions(nested, 90)] == [("m", 100)]


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_function_over_100_lines(path):
    found = long_functions(path.read_text(encoding="utf-8"))
    assert found == [], "; ".join(
        f"{path.name}:{line} {name}: {n} lines" for name, line, n in found
    )
