"""The README's screenshots (docs/img/): the page at 1366x768 (desktop), 820x1180
(tablet) and 390x844 (phone, touch), at 4 and 8 seats, in the middle of a person's
move: a card tapped, a pawn lifted, its targets lit, the instruction line saying what
to do. Each is scaled by --scale and reduced to 256 colours (Pillow) to keep the repo
small; the club's scoreboard is tests/club/test_scoreboard_projector.py's screenshot.
Also prints, for the phone at 8 seats, the smallest hole drawn in the zoomed view over a
whole game (every state of a game of bots, the page never pressing "Whole board").

Run: .venv/bin/python bench/screenshots.py [--out docs/img] [--scale 0.8] [--moves 400]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from conftest import CHROMIUM, CHROMIUM_ARGS, start_server
from web_helpers import link, opening_seed, options

from keezbord.host.web.hub import Hub

SCREENS = {"desktop": (1366, 768, False), "tablet": (820, 1180, True), "phone": (390, 844, True)}

# The pit size of the hole drawn smallest now (all holes have one radius), and whether
# the view is zoomed.
PIT_PX = """() => { const p = document.querySelector(".hole .pit");
  return [p ? p.getBoundingClientRect().width : 0,
          document.querySelector("#board").classList.contains("zoomed")]; }"""


def save(page: Any, path: Path, scale: float) -> None:
    raw = path.with_suffix(".raw.png")
    page.screenshot(path=str(raw))
    img = Image.open(raw).convert("RGB")
    if scale != 1:
        img = img.resize(
            (round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS
        )
    img.quantize(256).save(path, optimize=True)
    raw.unlink()


def mid_move(browser: Any, db: Path, screen: str, seats: int, out: Path, scale: float) -> None:
    width, height, touch = SCREENS[screen]
    seed, card = opening_seed(0, seats)
    opts = options(db, seed=seed, bot_speed=0.3, think_ms=400)
    kinds = ["human"] + ["greedy"] * (seats - 1)
    srv = start_server(lambda: Hub.open_sim(opts, kinds=kinds, seats=seats))
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch
    )
    try:
        page = ctx.new_page()
        page.goto(link(srv, lang="nl"))
        page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
        click = page.tap if touch else page.click
        click(f".card[data-card='{card}']")
        page.wait_for_selector(".hole[data-hole='N0.1'].led-source")
        click(".hole[data-hole='N0.1']")
        page.wait_for_selector(".hole[data-hole='T0'].led-target")
        time.sleep(0.5)  # the pawn's flight and the zoom's pan
        save(page, out / f"{screen}-{seats}.png", scale if screen != "phone" else 1.0)
    finally:
        ctx.close()
        srv.stop()


def smallest_hole(browser: Any, db: Path, moves: int) -> tuple[float, int, int, int, bool]:
    """A game of 8 bots watched on a phone at the referee's link: the smallest hole
    drawn, over every state, and how many states were drawn zoomed and not."""
    seed, _ = opening_seed(0, 8)
    opts = options(db, seed=seed, bot_speed=0.05, think_ms=100)
    srv = start_server(lambda: Hub.open_sim(opts, kinds=["greedy"] * 8, seats=8))
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    smallest, zoomed, whole, n, over = 1e9, 0, 0, 0, False
    try:
        page = ctx.new_page()
        page.goto(link(srv, lang="nl"))
        page.wait_for_selector(".hole .pit")
        last = -1
        deadline = time.monotonic() + 1800
        while time.monotonic() < deadline:
            n, over = page.evaluate(
                "() => [window.keezbord.state.history.length, !!window.keezbord.state.winner]"
            )
            if n != last:
                time.sleep(0.3)  # the view settles on the new move
                px, z = page.evaluate(PIT_PX)
                if z:
                    zoomed += 1
                    smallest = min(smallest, px)
                else:
                    whole += 1
                last = n
            if over or n >= moves:
                break
            time.sleep(0.05)
    finally:
        ctx.close()
        srv.stop()
    return smallest, zoomed, whole, n, over


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("docs/img"))
    ap.add_argument("--scale", type=float, default=0.8)
    ap.add_argument("--moves", type=int, default=400, help="stop the game after this many")
    ap.add_argument("--no-shots", action="store_true")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        if not args.no_shots:
            for screen in SCREENS:
                for seats in (4, 8):
                    mid_move(
                        browser,
                        Path(tmp) / f"{screen}{seats}.sqlite",
                        screen,
                        seats,
                        args.out,
                        args.scale,
                    )
                    print(f"{args.out}/{screen}-{seats}.png")
        px, zoomed, whole, n, over = smallest_hole(browser, Path(tmp) / "game.sqlite", args.moves)
        print(
            f"phone 390x844, 8 seats: smallest hole drawn {px:.1f} px over {zoomed} "
            f"zoomed states ({whole} states drawn whole); {n} moves, "
            f"{'the game won' if over else 'the game not over'}"
        )
        browser.close()


if __name__ == "__main__":
    main()
