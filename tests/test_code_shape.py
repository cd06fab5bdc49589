"""The shape of the code a maintainer reads: no function in src/ over 100 lines (docstring and
decorators' lines included), so that each can be held in one's head."""

from __future__ import annotations

import ast
import re
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


ROOT = SRC.parents[1]
#: Markdown names the code writes without meaning a file of the repository: test_cli.py
#: checks that the CLI names no RULES.md (the specification users do not have), and
#: test_report.py writes a keep.md of its own into a temporary folder.
NOT_FILES = {
    ("test_cli.py", "RULES.md"),
    ("test_cli.py", "shared/RULES.md"),
    ("test_report.py", "keep.md"),
}
NOT_FILES |= {("test_code_shape.py", n) for _, n in NOT_FILES}  # named here, and planted below
#: The repository's Markdown files, from its root.
MARKDOWN_FILES = [
    p.relative_to(ROOT).as_posix()
    for p in [*ROOT.glob("*.md"), *(ROOT / "docs").rglob("*.md"), *(ROOT / "benchmarks").rglob("*.md"), *SRC.rglob("*.md")]
]  # fmt: skip
_MARKDOWN = re.compile(r"(?<![\w./-])((?:\.\./|[\w-]+/)*[\w-]+\.md)\b")


def missing_markdown(path: Path) -> list[str]:
    """The Markdown files ``path`` names (``docs/rules.md``, ``README.md``) that the repository
    lacks: a name is looked for beside ``path``, else as the end of a path of the repository's
    Markdown files (``rules.md`` is docs/rules.md's)."""
    names = set(_MARKDOWN.findall(path.read_text(encoding="utf-8")))
    return sorted(
        n
        for n in names
        if (path.name, n) not in NOT_FILES
        and not (path.parent / n).is_file()
        and not any(f == n or f.endswith("/" + n) for f in MARKDOWN_FILES)
    )


def test_the_markdown_check_finds_a_missing_file(tmp_path):
    planted = tmp_path / "test_x.py"
    planted.write_text('"""Values from RULES.md and README.md."""\n', encoding="utf-8")
    assert missing_markdown(planted) == ["RULES.md"]


@pytest.mark.parametrize(
    "path",
    sorted([*SRC.rglob("*.py"), *(ROOT / "tests").glob("*.py")]),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_reference_to_a_markdown_file_the_repository_lacks(path):
    assert missing_markdown(path) == []
