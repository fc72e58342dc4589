"""The puzzle sets: the one shipped with keezbord (``shipped.jsonl`` beside this file,
made by ``keezbord puzzles mine`` with a fixed seed: docs/puzzles.md) and the club's own,
mined from its journal's games into ``puzzles.jsonl`` beside the journal. One JSON object
a line (engine/puzzles.py ``Puzzle.to_json``)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from keezbord.engine.puzzles import Puzzle

SHIPPED = "shipped.jsonl"
CLUB_FILE = "puzzles.jsonl"


class PuzzleFileError(ValueError):
    """A puzzle file that cannot be read; one line naming the file and line."""


def parse(lines: Iterable[str], name: str) -> Iterator[Puzzle]:
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield Puzzle.from_json(json.loads(line))
        except ValueError as e:  # JSONDecodeError too
            raise PuzzleFileError(f"{name} line {no}: {' '.join(str(e).split())}") from None


def shipped() -> list[Puzzle]:
    """The set that ships with keezbord."""
    text = resources.files(__package__).joinpath(SHIPPED).read_text(encoding="utf-8")
    return list(parse(text.splitlines(), SHIPPED))


def read(path: Path) -> list[Puzzle]:
    """A puzzle file (a missing one holds no puzzles)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleFileError(f"{path}: cannot read it ({e})") from None
    return list(parse(text.splitlines(), str(path)))


def club_file(journal: Path) -> Path:
    """Where the puzzles mined from a journal's games are kept: beside it."""
    return journal.with_name(CLUB_FILE)


def add(path: Path, puzzles: Iterable[Puzzle]) -> int:
    """Add the puzzles not in the file yet (by id); written beside, then renamed, so a
    cut leaves the old file. How many were new."""
    have = read(path)
    ids = {p.id for p in have}
    new: list[Puzzle] = []
    for p in puzzles:
        if p.id not in ids:
            ids.add(p.id)
            new.append(p)
    if not new:
        return 0
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for p in [*have, *new]:
            f.write(json.dumps(p.to_json(), ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())
    tmp.replace(path)
    return len(new)
