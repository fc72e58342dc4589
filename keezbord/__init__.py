"""keezbord: a referee, simulator and companion for a handmade Keezen board.

Layers (see docs/architecture.md): ``keezbord.engine`` (the rules, pure),
``keezbord.hardware`` (the board as data), ``keezbord.host`` (referee, drivers,
web, CLI). The Pico firmware lives outside the package, in ``firmware/``.

``keezbord.__version__`` is the version in pyproject.toml, the only place it is written:
read from the installed package's metadata (on first use, so ``import keezbord`` stays
cheap), or from pyproject.toml itself when running from a source tree that is not
installed.
"""

from __future__ import annotations


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("keezbord")
    except PackageNotFoundError:
        import tomllib
        from pathlib import Path  # here, not at the top: `keezbord moves` starts fast

        pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
        try:
            v: str = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "0+unknown"
        return v


def __getattr__(name: str) -> str:
    if name == "__version__":
        v = _version()
        globals()["__version__"] = v
        return v
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
