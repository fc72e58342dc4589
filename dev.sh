#!/usr/bin/env bash
# keezbord's two entry points, each bootstrapping what it needs on a fresh machine:
#   ./dev.sh sim    run keezbord on its simulated board (no hardware needed)
#   ./dev.sh test   run the whole test suite (ruff, mypy, pytest incl. browser and MicroPython tests)
#   ./dev.sh mypy   only the type check (package, bench and tests), as `test` runs it
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
        "$VENV/bin/python" -m pip install --quiet -e ".[dev]"
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

typecheck() {
    # mypy strict (pyproject.toml) over the package, then bench/ and the tests one folder
    # at a time: pytest puts each test folder on sys.path (helpers are imported by their
    # bare name) and several folders hold a conftest.py, which one mypy run cannot tell
    # apart. bench_web.py borrows tests/web's helpers.
    local d rc=0
    "$VENV/bin/mypy" || rc=1
    MYPYPATH=tests/web "$VENV/bin/mypy" bench || rc=1
    "$VENV/bin/mypy" tests/*.py || rc=1
    for d in tests/*/; do
        "$VENV/bin/mypy" "$d" || rc=1
    done
    return $rc
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
        typecheck
        echo "== pytest" >&2
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    mypy)
        venv
        typecheck
        ;;
    *)
        echo "usage: ./dev.sh sim [options] | ./dev.sh test [pytest options] | ./dev.sh mypy" >&2
        exit 2
        ;;
esac
