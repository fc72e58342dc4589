"""Typed reads from one table of a board's TOML file (config.py, config_net.py): every
error is one line naming the file, the key and the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A configuration that cannot be used; the message is one line naming the key."""


class Section:
    """Typed reads from one TOML table, each error naming file and key."""

    def __init__(self, source: str, name: str, data: Any, keys: tuple[str, ...]) -> None:
        self.source, self.name = source, name
        if not isinstance(data, dict):
            raise self.error(None, "must be a table")
        self.data: dict[str, Any] = data
        for k in data:
            if k not in keys:
                raise self.error(k, f"unknown key (known: {', '.join(keys)})")

    def key(self, k: str | None) -> str:
        if k is None:
            return self.name or "(top level)"
        return f"{self.name}.{k}" if self.name else k

    def error(self, k: str | None, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {self.key(k)}: {problem}")

    def get_int(self, k: str, default: int, lo: int, hi: int) -> int:
        v = self.data.get(k, default)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.error(k, f"must be a whole number, not {v!r}")
        if not lo <= v <= hi:
            raise self.error(k, f"must be {lo} to {hi}, not {v}")
        return v

    def get_float(self, k: str, default: float | None, lo: float, hi: float) -> float | None:
        v = self.data.get(k, default)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise self.error(k, f"must be a number, not {v!r}")
        if not lo <= v <= hi:
            raise self.error(k, f"must be {lo:g} to {hi:g}, not {v}")
        return float(v)

    def get_str(self, k: str, default: str, choices: tuple[str, ...] | None = None) -> str:
        v = self.data.get(k, default)
        if not isinstance(v, str) or not v:
            raise self.error(k, f"must be a non-empty string, not {v!r}")
        if choices is not None and v not in choices:
            raise self.error(k, f"must be one of {', '.join(choices)}, not {v!r}")
        return v

    def get_path(self, k: str, default: str, base: Path) -> Path:
        p = Path(self.get_str(k, default)).expanduser()
        return p if p.is_absolute() else base / p

    def table(self, k: str, keys: tuple[str, ...]) -> Section:
        return Section(self.source, self.key(k), self.data.get(k, {}), keys)

    def get_bool(self, k: str, default: bool) -> bool:
        v = self.data.get(k, default)
        if not isinstance(v, bool):
            raise self.error(k, f"must be true or false, not {v!r}")
        return v

    def get_ints(self, k: str, lo: int, hi: int) -> tuple[int, ...]:
        """A list of distinct whole numbers from ``lo`` to ``hi`` (default: none)."""
        v = self.data.get(k, [])
        if not isinstance(v, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in v
        ):
            raise self.error(k, f"must be a list of whole numbers, not {v!r}")
        if any(not lo <= x <= hi for x in v) or len(set(v)) != len(v):
            raise self.error(k, f"must be distinct numbers from {lo} to {hi}, not {v}")
        return tuple(sorted(v))
