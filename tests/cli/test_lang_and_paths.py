"""One rule each (issue 11 items 12 and 13): where the configuration and the journal are,
and which language the command line speaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run

from keezbord.host.commands.lang import resolve_lang
from keezbord.host.config import find_config, journal_of
from keezbord.host.paths import JournalPathError, config_path, journal_path

BEFORE = {"seats": 4, "pawns": [["N"] * 4] * 4}
AFTER = {"seats": 4, "pawns": [["S", "N", "N", "N"], ["N"] * 4, ["N"] * 4, ["N"] * 4]}


@pytest.fixture
def sealed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("KEEZBORD_SYSTEM_CONFIG", str(tmp_path / "etc" / "board.toml"))
    monkeypatch.delenv("KEEZBORD_LANG", raising=False)
    (tmp_path / "etc").mkdir()
    return tmp_path


def test_journal_rule_in_order(sealed: Path) -> None:
    data = sealed / "xdg" / "keezbord" / "keezbord.sqlite"
    assert config_path(None) is None
    assert journal_of(find_config(None)) == data  # no configuration: the data folder
    assert data.parent.is_dir()
    (sealed / "etc" / "board.toml").write_text('[files]\njournal = "service.sqlite"\n')
    assert journal_of(find_config(None)) == sealed / "etc" / "service.sqlite"
    (sealed / "board.toml").write_text('[files]\njournal = "here.sqlite"\n')
    assert config_path(None) == Path("board.toml")
    assert journal_of(find_config(None)) == sealed / "here.sqlite"
    (sealed / "other").mkdir()
    (sealed / "other" / "b.toml").write_text('[files]\njournal = "there.sqlite"\n')
    assert journal_of(find_config("other/b.toml")) == sealed / "other" / "there.sqlite"
    # A configuration that names no journal: the data folder, not a file beside it.
    (sealed / "other" / "plain.toml").write_text("[board]\nseats = 6\n")
    assert journal_of(find_config("other/plain.toml")) == data
    # --db beats the configuration.
    assert journal_of(find_config(None), "mine.sqlite") == sealed / "mine.sqlite"


def test_journal_folder_must_exist(sealed: Path) -> None:
    with pytest.raises(JournalPathError, match="does not exist"):
        journal_path(sealed / "no" / "j.sqlite")
    with pytest.raises(JournalPathError, match="is a folder"):
        journal_path(None, sealed)
    assert not (sealed / "no").exists()


def test_lang_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KEEZBORD_LANG", raising=False)
    assert resolve_lang(None) == "en"
    monkeypatch.setenv("KEEZBORD_LANG", "nl")
    assert resolve_lang(None) == "nl"
    assert resolve_lang("en") == "en"


def _reason(tmp: Path, *args: str, lang_env: str = "") -> str:
    (tmp / "b.json").write_text(json.dumps(BEFORE))
    (tmp / "a.json").write_text(json.dumps(AFTER))
    r = run(tmp, "check", "--card", "5", "b.json", "a.json", *args, KEEZBORD_LANG=lang_env)
    assert r.returncode == 1, r.stderr
    reason: str = json.loads(r.stdout)["reason"]
    return reason


def test_every_command_follows_the_lang_rule(tmp_path: Path) -> None:
    en, nl = _reason(tmp_path), _reason(tmp_path, lang_env="nl")
    assert en != nl
    assert _reason(tmp_path, "--lang", "en", lang_env="nl") == en
    assert _reason(tmp_path, "--lang", "nl") == nl
    # cards and selftest spoke Dutch by default; now English unless asked.
    assert "cards to enroll" in run(tmp_path, "cards", "list").stdout
    assert "kaarten in te lezen" in run(tmp_path, "cards", "list", KEEZBORD_LANG="nl").stdout
    # sim and run take --lang too.
    for cmd in ("sim", "run"):
        help_text = " ".join(run(tmp_path, cmd, "--help").stdout.split())
        assert "--lang {en,nl}" in help_text and "KEEZBORD_LANG" in help_text
