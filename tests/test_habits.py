"""The project's habits, checked (issue 12): one version source, the firmware's version
from the package at install, pre-commit hooks that download nothing, a changelog."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml  # pre-commit's own dependency, in the dev extra

import keezbord
from keezbord.host.commands.firmware import VERSION_FILE, version_module

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_version_is_written_once_in_pyproject() -> None:
    assert keezbord.__version__ == VERSION
    literal = re.compile(r"""["']\d+\.\d+\.\d+["']""")
    for path in [*(ROOT / "keezbord").rglob("*.py"), *(ROOT / "firmware").glob("*.py")]:
        for line in path.read_text().splitlines():
            if "version" in line.lower():
                assert not literal.search(line), f"{path}: {line.strip()}"


def test_firmware_install_writes_the_package_version_and_the_firmware_reports_it(
    tmp_path: Path,
) -> None:
    (tmp_path / VERSION_FILE).write_text(version_module())
    code = "import app; print(app.VERSION)"
    for path, want in (
        ([tmp_path, ROOT / "firmware"], f"keezbord-fw {VERSION}"),
        ([ROOT / "firmware"], "keezbord-fw dev"),
    ):
        env = {"PYTHONPATH": ":".join(map(str, path))}
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.stdout.strip() == want, done.stderr


def test_pre_commit_hooks_are_local_and_use_the_venv() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    assert set(hooks) == {"ruff", "ruff-format", "mypy"}
    for hook in hooks.values():
        assert hook["language"] == "system" and hook["entry"].startswith(".venv/bin/")


def test_the_changelog_has_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert "\n## Unreleased\n" in text
