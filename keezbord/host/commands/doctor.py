"""``keezbord doctor``: is this Pi ready for the configured board? One line a check, the
exact fix after each problem; exit 0 only when everything the board needs is right."""

from __future__ import annotations

import argparse
from pathlib import Path

from keezbord.engine.text import Text
from keezbord.host.commands.lang import add_lang_argument


def add_doctor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="the board's TOML (default: the service's /etc/keezbord/board.toml)",
    )
    p.add_argument(
        "--user",
        default=None,
        help="whose groups to check (default: keezbord, the service's user)",
    )
    p.add_argument(
        "--root",
        type=Path,
        default=Path("/"),
        metavar="DIR",
        help="check the tree under DIR instead of this machine (tests, images)",
    )
    add_lang_argument(p)


def run_doctor(args: argparse.Namespace) -> int:
    from keezbord.host.appliance.doctor import Probes, run_checks
    from keezbord.host.appliance.paths import Layout
    from keezbord.host.appliance.service import Recorder

    layout = Layout(args.root)
    probes = Probes(user=args.user)
    if args.root != Path("/"):
        # A fake tree has no systemd, USB bus or Pico of its own: nothing answers.
        probes = Probes(user=args.user, runner=Recorder(default=(3, "inactive")), usb_ports=list)
    findings = run_checks(layout, probes, args.config)
    for f in findings:
        print(f.line(args.lang))
    bad = sum(not f.ok for f in findings)
    if bad:
        word = Text("probleem" if bad == 1 else "problemen", "problem" if bad == 1 else "problems")
        print(f"{bad} {word.get(args.lang)}")
    return 1 if bad else 0
