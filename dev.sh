#!/usr/bin/env bash
# keezbord's two entry points, each bootstrapping what it needs on a fresh machine:
#   ./dev.sh sim    run keezbord on its simulated board (no hardware needed)
#   ./dev.sh test   run the whole test suite (ruff, mypy, pytest incl. browser and MicroPython tests)
# Anything after the verb is passed on (to `keezbord sim` or to pytest).
set -euo pipefail
cd "$(dirname "$0")"

PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
VENV=.venv
STAMP=$VENV/.installed-$(sha1sum pyproject.toml | cut -c1-12)

venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        echo "== creating $VENV" >&2
        "$PY" -m venv "$VENV"
    fi
    if [ ! -f "$STAMP" ]; then
        echo "== installing keezbord and its dev tools into $VENV" >&2
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
        "$VENV/bin/python" -m pip install --quiet -e ".[all,dev]"
        rm -f "$VENV"/.installed-*
        touch "$STAMP"
    fi
}

ensure_chromium() {
    # Browser tests drive Debian's Chromium through Playwright (no browser download).
    if ! command -v chromium >/dev/null 2>&1; then
        echo "== installing Debian's chromium for the browser tests" >&2
        if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
    fi
}

case "${1:-}" in
    sim)
        shift
        venv
        exec "$VENV/bin/keezbord" sim "$@"
        ;;
    test)
        shift
        venv
        ensure_chromium
        echo "== ruff" >&2
        "$VENV/bin/ruff" check .
        echo "== mypy" >&2
        "$VENV/bin/mypy"
        echo "== pytest" >&2
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    *)
        echo "usage: ./dev.sh sim [options] | ./dev.sh test [pytest options]" >&2
        exit 2
        ;;
esac
