"""JSON from outside (traces, positions, registries, wiring files, page messages): parsed
with one-line errors, never a RecursionError.

``json.loads`` raises RecursionError on input nested a thousand levels deep, and a value
nested just below that limit can still overflow whatever walks it later (``repr`` in an
error message, ``json.dumps`` into the journal). No keezbord format nests deeper than a
few levels, so anything deeper than ``MAX_DEPTH`` is refused here, at the edge.
"""

from __future__ import annotations

import json
from typing import Any, Final

MAX_DEPTH: Final = 32


class JsonTextError(ValueError):
    """Text that is not JSON we accept; the message is one line, without the source name."""


def loads(text: str | bytes) -> Any:
    """``json.loads``, with JsonTextError for malformed or too deeply nested input."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise JsonTextError(f"not valid JSON ({e.msg}, line {e.lineno} column {e.colno})") from None
    except RecursionError:
        raise JsonTextError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)") from None
    if depth(data) > MAX_DEPTH:
        raise JsonTextError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)")
    return data


def depth(data: Any) -> int:
    """How deeply lists and objects nest in ``data`` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, level = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if level > MAX_DEPTH:  # deep enough to refuse: stop walking
            return level
        stack.extend((c, level) for c in children)
    return deepest
