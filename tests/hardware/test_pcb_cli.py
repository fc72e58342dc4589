"""``keezbord board pcb``: bad input is one clear line and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest

from keezbord.host.cli import main


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(["board", "pcb", *args])
    except SystemExit as e:
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_out_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "file"
    f.write_text("keep me")
    code, _, err = _run(capsys, "--out", str(f))
    assert code != 0 and "is a file" in err and "Traceback" not in err
    assert f.read_text() == "keep me"


def test_without_kicad_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda c: None if c == "kicad-cli" else real(c))
    code, _, err = _run(capsys, "--out", str(tmp_path / "p"))
    assert code != 0 and "KiCad 9" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_shape_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "--shape", "star", "--out", str(tmp_path))
    assert code == 2 and "invalid choice" in err
