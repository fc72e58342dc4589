"""A progress bar on standard error, drawn only when it is a terminal (a pipe or a log
file gets nothing: the command's output stays clean)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``with Progress(total, "analyse") as bar: bar.step()``; redrawn at most 10 times a
    second, cleared at the end."""

    def __init__(self, total: int, label: str, out: TextIO | None = None) -> None:
        self.total = max(0, total)
        self.label = label
        self.out = sys.stderr if out is None else out
        self.done = 0
        self.on = self.out.isatty()
        self._drawn = 0.0
        self._t0 = time.monotonic()

    def __enter__(self) -> Progress:
        self.draw(force=True)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.on:
            self.out.write("\r\x1b[K")
            self.out.flush()

    def step(self, n: int = 1, total: int | None = None) -> None:
        self.done += n
        if total is not None:
            self.total = total
        self.draw()

    def draw(self, force: bool = False) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if not force and now - self._drawn < 0.1 and self.done < self.total:
            return
        self._drawn = now
        width = 30
        frac = self.done / self.total if self.total else 0.0
        fill = min(width, round(width * frac))
        elapsed = now - self._t0
        eta = elapsed / frac - elapsed if frac > 0 else 0.0
        self.out.write(
            f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} "
            f"{elapsed:.0f}s, {eta:.0f}s to go\x1b[K"
        )
        self.out.flush()
