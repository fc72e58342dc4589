"""The rehearsal's plan of docs/install-pi.md (guide.py), checked without booting anything:
every command of the page is run or declared, every declaration is still used, and a
command the page gains without a rule stops the plan with one line naming it."""

from __future__ import annotations

import pytest
from guide import DOC, RULES, SETUP, UndeclaredCommand, guide_commands, plan, stand_ins


def test_every_command_of_the_page_is_run_or_declared() -> None:
    steps = plan()
    assert len(steps) == len(guide_commands(DOC.read_text()))
    hows = {s.rule.how for s in steps}
    assert {"pi", "computer", "stand-in", "other-board"} == hows
    # The rehearsal reaches from the first command to the last.
    assert steps[0].command.text == "ssh pi@keezbord.local"
    assert steps[-1].command.text == "sudo /opt/keezbord/bin/keezbord service uninstall"


def test_every_rule_is_used_by_the_page() -> None:
    used = {id(s.rule) for s in plan()}
    stale = [r.pattern for r in RULES if id(r) not in used]
    assert stale == []


def test_a_command_the_page_gains_without_a_rule_fails_the_plan() -> None:
    page = DOC.read_text() + "\n## 12. More\n\n```sh\nsudo rpi-eeprom-update -a\n```\n"
    with pytest.raises(UndeclaredCommand, match=r"12\. More.*rpi-eeprom-update.*no rule"):
        plan(page)
    # A changed command too (the exact text is what is run or declared).
    changed = DOC.read_text().replace("sudo apt full-upgrade -y", "sudo apt dist-upgrade -y")
    with pytest.raises(UndeclaredCommand, match="dist-upgrade"):
        plan(changed)


def test_every_stand_in_says_why_and_what_stands_in() -> None:
    from standins import ACTIONS

    for rule in stand_ins():
        assert len(rule.why) > 20, rule.pattern
        if rule.how == "stand-in":
            assert rule.action in ACTIONS, rule.pattern
        if rule.before:
            assert rule.before in ACTIONS
    assert {what for what, _ in SETUP} >= {"the Pi", "the network", "the Pico", "the card reader"}


def test_rewrites_change_only_what_they_declare() -> None:
    for step in plan():
        if step.rule.rewrite is not None:
            assert step.run_text != step.command.text
            assert step.run_text.split()[:2] == step.command.text.split()[:2]


def test_the_shell_blocks_are_read_with_their_sections() -> None:
    text = "## 1. A\n\n```sh\necho one  \n# a comment\nsudo x \\\n  --flag\n```\n```text\nno\n```\n"
    cmds = guide_commands(text)
    assert [(c.text, c.section, c.block) for c in cmds] == [  # index: 0, 1
        ("echo one", "1. A", 0),
        ("sudo x --flag", "1. A", 0),
    ]
