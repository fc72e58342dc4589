"""What ``keezbord doctor`` says of the journal itself (checks_system.py checks its
folder): a file that is not a journal, the game in progress that cannot be resumed (its
setup row does not read) or that was resumed from a damaged journal (journal_damage.py),
and the running service's word on its writes (a full disk, a failing fsync:
``GET /api/health``'s ``journal``, journal_status.py)."""

from __future__ import annotations

import shlex

from keezbord.engine.text import Text
from keezbord.host.appliance.checks_devices import layout_config, service_port
from keezbord.host.appliance.paths import SERVICE, USER, Layout
from keezbord.host.appliance.probes import Board, Finding, Probes
from keezbord.host.appliance.unit import keezbord_command


def as_service(layout: Layout, args: str) -> str:
    """A keezbord command run as the service's user (the journal stays its own)."""
    cmd = shlex.join(keezbord_command())
    return f"sudo -u {USER} {cmd} {args} --config {layout_config(layout)}"


def journal_state_checks(board: Board, layout: Layout, probes: Probes) -> list[Finding]:
    out: list[Finding] = []
    if board.journal.exists():
        out += _game_checks(board, layout)
    if probes.runner(["systemctl", "is-active", SERVICE])[0] == 0:
        out += _service_says(layout, probes)
    return out


def _game_checks(board: Board, layout: Layout) -> list[Finding]:
    from keezbord.host.journal import Journal, JournalError
    from keezbord.host.journal_damage import reports

    path = board.journal
    try:
        with Journal(path, readonly=True) as journal:
            gid = journal.latest_game("run")
            if gid is None:
                return []
            try:
                journal.setup(gid)
            except JournalError as e:
                fix = as_service(layout, f"journal set-aside --game {gid}")
                return [
                    Finding(
                        "journal game",
                        False,
                        Text(
                            f"spel {gid} kan niet hervat worden ({e})",
                            f"game {gid} cannot be resumed ({e})",
                        ),
                        Text(
                            f"zet het apart (het blijft in het journaal): {fix}; "
                            f"sudo systemctl restart {SERVICE}",
                            f"set it aside (it stays in the journal): {fix}; "
                            f"sudo systemctl restart {SERVICE}",
                        ),
                    )
                ]
            damage = reports(journal.db, gid)
    except JournalError as e:
        return [
            Finding(
                "journal file",
                False,
                Text(f"onbruikbaar: {e}", f"unusable: {e}"),
                Text(
                    f"zet het opzij (sudo mv {path} {path}.bad) en herstart: een nieuw journaal",
                    f"move it aside (sudo mv {path} {path}.bad) and restart: a new journal",
                ),
            )
        ]
    if not damage:
        return [Finding("journal game", True, Text(f"spel {gid} leesbaar", f"game {gid} reads"))]
    export = as_service(layout, f"journal export --game {gid} --out game-{gid}.jsonl")
    return [
        Finding(
            "journal game",
            False,
            damage[-1].summary(),
            Text(
                "vergelijk het bord met de zettenlijst op de pagina; de apart gezette "
                f"invoer staat in de tabel set_aside; het spel: {export}",
                "compare the board with the page's move list; the inputs set aside are "
                f"in the table set_aside; the game: {export}",
            ),
        )
    ]


def _service_says(layout: Layout, probes: Probes) -> list[Finding]:
    report = probes.ask_service(service_port(layout))
    said = (report.health or {}).get("journal")
    if not isinstance(said, dict) or said.get("ok", True):
        return []
    text = said.get("text") or {}
    full = "disk is full" in str(text.get("en"))
    fix = (
        Text("maak ruimte (sudo apt-get clean; journal export --all naar een USB-stick); "
             "het spel gaat dan verder",
             "free some space (sudo apt-get clean; journal export --all to a USB stick); "
             "the game then goes on")
        if full
        else Text(f"controleer de SD-kaart; waarom: sudo journalctl -u {SERVICE} -n 50",
                  f"check the SD card; why: sudo journalctl -u {SERVICE} -n 50")
    )  # fmt: skip
    return [
        Finding(
            "journal writes",
            False,
            Text(f"de dienst zegt: {text.get('nl')}", f"the service says: {text.get('en')}"),
            fix,
        )
    ]
