"""Web page figures: click-to-LED latency in the browser, page load time, host memory.

Starts ``keezbord sim`` in a subprocess (all seats human, a seed whose first player holds
a card that brings a pawn out), drives Debian's headless Chromium with Playwright, and
prints the figures. Run: .venv/bin/python bench/bench_web.py [--clicks 30]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from conftest import CHROMIUM, CHROMIUM_ARGS
from web_helpers import opening_seed

CLICK_TO_LED = """async ([lift]) => {
  const g = document.querySelector(".hole[data-hole='T0']");
  const want = lift ? "target" : "turn";
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (g.dataset.led === want) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(g, { attributes: true, attributeFilter: ["data-led"] });
  });
  document.querySelector(".hole[data-hole='N0.1']").dispatchEvent(
      new MouseEvent("click", { bubbles: true }));
  return await done;
}"""


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clicks", type=int, default=30)
    args = ap.parse_args()
    seed, card = opening_seed()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = Path(tempfile.mkdtemp()) / "bench.sqlite"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "keezbord",
            "sim",
            "--no-browser",
            "--port",
            str(port),
            "--db",
            str(db),
            "--seed",
            str(seed),
            "--bots",
            "human,human,human,human",
            "--new",
        ]
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(url, timeout=0.5).read()
                break
            except OSError:
                time.sleep(0.05)
        rss_idle = rss_mb(proc.pid)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            loads = []
            for _ in range(5):
                page = browser.new_page()
                t0 = time.perf_counter()
                page.goto(url)
                page.wait_for_selector(".hole[data-hole='T0'][data-led]")  # board drawn, state in
                loads.append((time.perf_counter() - t0) * 1000)
                nav = page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
                page.close()
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector(f".card[data-card='{card}']:not([disabled])")
            page.click(f".card[data-card='{card}']")
            page.wait_for_selector("#played:not(:empty)")
            lat: list[float] = []
            for _ in range(args.clicks):
                lat.append(page.evaluate(CLICK_TO_LED, [True]))  # lift: the target lights
                page.evaluate(CLICK_TO_LED, [False])  # put it back: the target goes dark
            rss_busy = rss_mb(proc.pid)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    lat.sort()
    print(
        f"click -> LED on the page (lift, target lit), {len(lat)} clicks: "
        f"median {statistics.median(lat):.1f} ms, p90 {lat[int(len(lat) * 0.9)]:.1f} ms, "
        f"max {lat[-1]:.1f} ms"
    )
    print(
        f"page load to board with LEDs: median {statistics.median(loads):.0f} ms "
        f"(first {loads[0]:.0f} ms); navigation loadEventEnd {nav:.0f} ms"
    )
    print(f"host RSS: {rss_idle:.1f} MB idle, {rss_busy:.1f} MB after the clicks")


if __name__ == "__main__":
    main()
