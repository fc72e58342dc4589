"""The README's Python quick start runs as a doctest: what a newcomer pastes first works."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _pycon_blocks(text: str) -> list[str]:
    return re.findall(r"^```pycon\n(.*?)^```$", text, flags=re.M | re.S)


def test_the_quick_start_runs() -> None:
    blocks = _pycon_blocks(README.read_text(encoding="utf-8"))
    assert blocks, "README.md has no ```pycon quick start"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md[{i}]", str(README), 0)
        examples += len(test.examples)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert examples >= 5  # a position, its legal moves, apply, explain
