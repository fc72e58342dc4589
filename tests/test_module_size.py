"""Small modules (docs/architecture.md): none over 400 lines without a reason written at
its top (its docstring says ``Over 400 lines:`` and why), and the web hub under 400 with
no exception."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "keezbord"
LIMIT = 400
REASON = "Over 400 lines:"


def lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_no_module_over_400_lines_without_a_reason_at_its_top() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in sorted(PACKAGE.rglob("*.py"))
        if (n := lines(p)) > LIMIT
        and REASON not in (ast.get_docstring(ast.parse(p.read_text())) or "")
    }
    assert long == {}


def test_the_web_hub_is_under_400_lines_with_no_exception() -> None:
    assert lines(PACKAGE / "host" / "web" / "hub.py") < LIMIT
