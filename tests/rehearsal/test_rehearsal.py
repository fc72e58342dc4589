"""docs/install-pi.md rehearsed on a real systemd: a fresh Debian Bookworm machine booted
under systemd-nspawn (machine.py), the page's shell blocks typed in order as the user pi
(guide.py says how each is run or what stands in for it, and why), the stand-in board
attached (the real Pico firmware under the MicroPython unix port behind the Pico's port,
a fake PN532 on the UART). Then, on the installed machine: the service runs as its user
and starts in seconds without the Pico; doctor exits 0 only when all is right and names
each planted fault; a game is refereed through the service and its page; a killed
service comes back and loses nothing; the page's last command removes it.

Measured on a 2-core machine shared with other test runs (load average 13 to 27): 7 to
9.5 minutes warm (the Bookworm root and apt's packages cached, root.py), 12 minutes cold
(the first run on a machine builds the root first: debootstrap, 7 of those minutes).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import cannot_rehearse
from rehearsal import Rehearsal, StepFailed
from standins import DECK

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring

WHY = cannot_rehearse()
pytestmark = [
    pytest.mark.rehearsal,
    pytest.mark.skipif(WHY is not None, reason=f"the rehearsal cannot run here: {WHY}"),
    pytest.mark.timeout(1800),
]
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "rehearsal"
WIRING = default_wiring(Topology(4, 16))
NESTS = [f"N{s}.{k}" for s in range(4) for k in range(1, 5)]
KZ = "sudo /opt/keezbord/bin/keezbord"


@pytest.fixture(scope="module")
def rehearsed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rehearsal]:
    work = tmp_path_factory.mktemp("rehearsal")
    r = Rehearsal(work)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    began = time.monotonic()
    try:
        r.prepare()
        r.power_on()
        failed: StepFailed | None = None
        try:
            r.run_guide(until_section="Removing")
        except StepFailed as e:
            failed = e
        write_transcript(r, time.monotonic() - began)
        if failed is not None:
            pytest.fail(str(failed), pytrace=False)
        yield r
    finally:
        r.close()
        write_transcript(r, time.monotonic() - began)
        for name in ("machine.log", "board.log"):
            src = work / name if (work / name).exists() else work / "run" / name
            if src.exists():
                shutil.copy2(src, ARTIFACTS / name)
        subprocess.run(["rm", "-rf", "--one-file-system", str(work / "root")], check=False)


def write_transcript(r: Rehearsal, seconds: float) -> None:
    lines = [f"# the rehearsal of docs/install-pi.md: {seconds:.0f} s, boots {r.boot_seconds}"]
    for ran in r.transcript:
        lines.append(
            f"{ran.done.rc:3d} {ran.done.seconds:6.1f}s  {ran.step.command.text}"
            + (f"   [{ran.note}]" if ran.note else "")
        )
    (ARTIFACTS / "transcript.txt").write_text("\n".join(lines) + "\n")


def ran(r: Rehearsal, command: str) -> list[Any]:
    return [x for x in r.transcript if x.step.command.text == command]


def doctor(r: Rehearsal) -> tuple[int, str]:
    done = r.m.sh(f"{KZ} doctor")
    return done.rc, done.out


def fails(out: str) -> dict[str, str]:
    return dict(re.findall(r"^FAIL ([a-z. ]+): (.*)$", out, flags=re.M))


def wait(pred: Callable[[], Any], limit: float = 30, what: str = "") -> Any:
    end = time.monotonic() + limit
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"timed out: {what}")
        time.sleep(0.2)


class Page:
    """The service's page as a browser on the Pi sees it (through a forwarder)."""

    def __init__(self, r: Rehearsal) -> None:
        self.url = f"http://127.0.0.1:{r.m.forward(8000)}"

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/api/state", timeout=5) as f:
            data: dict[str, Any] = json.loads(f.read())
        return data

    def until(self, pred: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        def check() -> dict[str, Any] | None:
            try:
                s = self.state()
            except OSError:
                return None
            return s if pred(s) else None

        return wait(check, 30, what)  # type: ignore[no-any-return]


def service_pid(r: Rehearsal) -> int:
    return int(r.m.root_sh("systemctl show -p MainPID --value keezbord").out.strip() or 0)


# -- the guide ---------------------------------------------------------------------------


def test_the_guide_runs_from_its_first_command_to_its_last(rehearsed: Rehearsal) -> None:
    r = rehearsed
    assert [x.done.rc for x in r.transcript if x.done.rc != 0] == []
    assert r.transcript[0].step.command.text == "ssh pi@keezbord.local"
    # Every doctor the page runs says all is well (exit 0), asking the running service.
    doctors = ran(r, f"{KZ} doctor")
    # step 8, after the voice's set-up (step 9), and after the upgrade (step 11)
    assert len(doctors) == 3 and all("FAIL" not in d.done.out for d in doctors)
    assert "(asked the service)" in doctors[0].done.out
    # The firmware went on through the configured port; the deck was enrolled.
    installs = ran(r, f"{KZ} firmware install --config /etc/keezbord/board.toml")
    assert len(installs) == 2  # step 6, and again with the upgrade (step 11)
    assert all("firmware installed on /dev/ttyACM0" in i.done.out for i in installs)
    # The upgrade was a real one: the service and the Pico run the new version.
    assert "keezbord-fw 0.1.0.post1, healthy" in doctors[-1].done.out  # after step 11
    cards = json.loads(r.m.path("/var/lib/keezbord/cards.json").read_text())["tags"]
    assert sorted(cards) == sorted(DECK)
    # Each restart the page asks for booted the machine again, the service with it.
    assert len(r.boot_seconds) >= 4 and max(r.boot_seconds) < 60


def test_the_service_runs_as_its_user_and_starts_in_seconds_without_the_pico(
    rehearsed: Rehearsal,
) -> None:
    r = rehearsed
    # step 5, no Pico yet (the voice's set-up, step 9, restarts it again)
    restart, *_ = ran(r, "sudo systemctl restart keezbord")
    assert restart.step.command.section.startswith("5.")
    assert restart.done.seconds < 10
    r.unplug_pico()
    try:
        began = time.monotonic()
        assert r.m.sh("sudo systemctl restart keezbord").rc == 0
        page = Page(r)
        page.until(lambda s: s["health"]["link"]["connected"] is False, "the page without a Pico")
        assert time.monotonic() - began < 15  # seconds, not a 90 s device timeout
        pid = service_pid(r)  # the machine's pid: its /proc is read inside
        inside = r.m.root_sh(f"grep -E '^(Uid|CapEff)' /proc/{pid}/status").out
        uid = r.m.ids("keezbord")[0]
        assert re.search(rf"^Uid:\s+{uid}\s", inside, flags=re.M), inside
        assert re.search(r"^CapEff:\s+0+$", inside, flags=re.M), inside
    finally:
        r.plug_pico()
    Page(r).until(lambda s: s["health"]["link"]["firmware"] is not None, "the Pico found again")


# -- doctor ------------------------------------------------------------------------------


def test_doctor_exits_0_only_when_all_is_right_and_names_each_planted_fault(
    rehearsed: Rehearsal,
) -> None:
    r = rehearsed
    assert doctor(r)[0] == 0

    r.unplug_pico()
    rc, out = doctor(r)
    assert rc == 1 and "pico" in fails(out) and "plug the Pico in" in out, out
    r.plug_pico()
    wait(lambda: doctor(r)[0] == 0, 60, "doctor content with the Pico back")

    config = r.m.path("/boot/firmware/config.txt")
    text = config.read_text()
    config.write_text(text.replace("dtparam=uart0=on", "#dtparam=uart0=on"))
    rc, out = doctor(r)
    assert rc == 1 and "dtparam=uart0=on" in out and "uart" in fails(out), out
    config.write_text(text)

    assert r.m.sh("sudo systemctl stop keezbord").rc == 0
    rc, out = doctor(r)
    # Stopped: the service fails, and doctor asks the Pico itself (its port is free).
    assert rc == 1 and set(fails(out)) == {"service"}, out
    assert "keezbord-fw" in out and "healthy" in out
    assert r.m.sh("sudo systemctl start keezbord").rc == 0
    rc, out = doctor(r)
    assert rc == 0, out


def test_doctor_names_a_bare_micropython_pico_and_a_wrong_firmware_version(
    rehearsed: Rehearsal,
) -> None:
    r = rehearsed
    flash = r.run / "pico-flash"
    version = flash / "version.py"
    good = version.read_text()
    try:
        # A bare MicroPython Pico (no main.py): the service's link has no firmware to hear.
        r.unplug_pico()
        (flash / "main.py").rename(flash / "main.py.away")
        r.plug_pico()
        rc, out = doctor(r)
        said = fails(out).get("firmware", "")
        assert rc == 1 and "no keezbord firmware on /dev/ttyACM0" in said, out
        assert "sudo systemctl stop keezbord.service && sudo /opt/keezbord/bin/keezbord " in out
        r.unplug_pico()
        (flash / "main.py.away").rename(flash / "main.py")
        version.write_text(good.replace("keezbord-fw ", "keezbord-fw 0.0.0+"))
        r.plug_pico()
        rc, out = doctor(r)
        assert rc == 1 and "expected keezbord-fw" in fails(out).get("firmware", ""), out
    finally:  # the board as it was, for the tests after this one
        r.unplug_pico()
        if (flash / "main.py.away").exists():
            (flash / "main.py.away").rename(flash / "main.py")
        version.write_text(good)
        r.plug_pico()
        wait(lambda: doctor(r)[0] == 0, 60, "doctor content with the Pico back")


# -- a game ------------------------------------------------------------------------------


def switches(holes: list[str], closed: bool) -> list[tuple[int, bool]]:
    return [(WIRING.switch_index(h), closed) for h in holes]


def lit(hole: str) -> Callable[[dict[str, Any]], bool]:
    return lambda s: hole in s["leds"]


def history_of(n: int) -> Callable[[dict[str, Any]], bool]:
    return lambda s: len(s["history"]) == n


def test_a_game_is_refereed_through_the_service_and_its_page(rehearsed: Rehearsal) -> None:
    r = rehearsed
    page = Page(r)
    # The board as the firmware first saw it was empty: the referee asks for the pawns.
    s = page.until(lambda s: s["flag"] is not None or len(s["pawns"]) == 16, "the first read")
    r.move(switches(NESTS, True))
    s = page.until(lambda s: s["flag"] is None and len(s["pawns"]) == 16, "pawns in the nests")
    tags = json.loads(r.m.path("/var/lib/keezbord/cards.json").read_text())["tags"]
    aces = [t for t, rank in tags.items() if rank == "A"]
    for k in range(3):
        seat, start = s["turn"], f"T{s['turn'] * 16}"
        r.ask(op="card", uid=aces[k], hold_ms=400)
        page.until(lambda s: s["card"] == "A", f"seat {seat}'s ace read")
        r.move(switches([f"N{seat}.1"], False))
        page.until(lit(start), "the lifted pawn's target lit")
        r.move(switches([start], True))
        s = page.until(history_of(k + 1), f"move {k + 1} accepted")
        assert s["history"][-1]["move"] == f"A {seat}:N-S" and s["turn"] == (seat + 1) % 4
    # A pawn put on a wrong hole is flagged, with the hole to restore.
    seat = s["turn"]
    r.ask(op="card", uid=aces[3], hold_ms=400)
    page.until(lambda s: s["card"] == "A", "the fourth ace")
    r.move(switches([f"N{seat}.1"], False))
    r.move(switches([f"T{seat * 16 + 5}"], True))
    s = page.until(lambda s: s["flag"] is not None, "the wrong hole flagged")
    assert f"T{seat * 16 + 5}" in s["flag"]["error"]
    r.move(switches([f"T{seat * 16 + 5}"], False))
    r.move(switches([f"T{seat * 16}"], True))
    s = page.until(lambda s: len(s["history"]) == 4 and s["flag"] is None, "the move put right")
    assert s["health"]["link"]["ok"] is True and s["health"]["link"]["frames_bad"] == 0
    # The page itself, in a browser: the moves in its list.
    items = browser_moves(page.url)
    played = [i.split(" ", 1)[0] for i in items if re.match(r"\d+\.A \d:N-S ", i)]
    assert played == ["1.A", "2.A", "3.A", "4.A"], items
    assert any("illegal" in i.lower() for i in items), items  # the flagged move, listed


def browser_moves(url: str) -> list[str]:
    from playwright.sync_api import sync_playwright

    chromium = "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.fail(f"{chromium} not installed (./dev.sh test installs it)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        try:
            pg = b.new_page()
            pg.goto(url + "/?lang=en")
            pg.wait_for_function("document.querySelectorAll('#moves li').length >= 4")
            items: list[str] = pg.eval_on_selector_all(
                "#moves li", "els => els.map(e => e.innerText)"
            )
        finally:
            b.close()
    return [i.strip() for i in items]


def test_a_killed_service_comes_back_and_loses_nothing(rehearsed: Rehearsal) -> None:
    r = rehearsed
    page = Page(r)
    before = page.state()
    assert before["history"], "the game test plays first"
    pid = service_pid(r)
    began = time.monotonic()
    assert r.m.sh("sudo systemctl kill -s KILL keezbord").rc == 0
    wait(lambda: service_pid(r) not in (0, pid), 30, "the service started again")
    after = page.until(lambda s: s["health"]["link"]["firmware"] is not None, "the page again")
    assert time.monotonic() - began < 20  # RestartSec=3, then the start
    assert after["game"] == before["game"]
    assert [h["move"] for h in after["history"]] == [h["move"] for h in before["history"]]
    assert after["turn"] == before["turn"] and after["pawns"] == before["pawns"]


def test_the_last_command_of_the_page_removes_the_service(rehearsed: Rehearsal) -> None:
    r = rehearsed
    r.run_guide()  # what is left: "Removing"
    assert not r.m.path("/etc/systemd/system/keezbord.service").exists()
    assert r.m.root_sh("systemctl is-active keezbord").out.strip() in ("inactive", "unknown")
    assert r.m.path("/var/lib/keezbord/keezbord.sqlite").exists()  # the games stay
