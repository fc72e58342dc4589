#!/usr/bin/env bash
# keezbord's two entry points, each bootstrapping what it needs on a fresh machine:
#   ./dev.sh sim    run keezbord on its simulated board (no hardware needed)
#   ./dev.sh test   run the whole test suite (ruff, mypy, the scripts' checker, pytest incl.
#                   browser, MicroPython and emulated-Pico tests; KEEZBORD_EMULATOR=full for
#                   the long scenarios)
#   ./dev.sh mypy   only the type check (package, firmware, bench and tests), as `test` runs it
#   ./dev.sh tsc    only the check of the page's and the club's scripts, as `test` runs it
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

APT_UPDATED=
apt_install() {
    # Install the Debian packages named (package:command pairs, or a package whose command
    # has its name) whose command is missing; one apt-get update per run at most.
    local item pkg cmd missing=()
    for item in "$@"; do
        pkg=${item%%:*}
        cmd=${item#*:}
        if ! command -v "$cmd" >/dev/null 2>&1 && ! [ -x "/usr/sbin/$cmd" ]; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "== installing Debian's ${missing[*]}" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    if [ -z "$APT_UPDATED" ]; then
        $SUDO apt-get update -qq
        APT_UPDATED=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_chromium() {
    # Browser tests drive Debian's Chromium through Playwright (no browser download).
    apt_install chromium
}

ensure_voice() {
    # tests/host/voice: the board's speaker renders with Debian's espeak-ng and plays with
    # ALSA's aplay (alsa-utils), to a file device the tests define (docs/voice.md).
    apt_install espeak-ng alsa-utils:aplay
}

ensure_mosquitto() {
    # tests/club start a real Mosquitto broker (and make its password file with
    # mosquitto_passwd, from the same package).
    apt_install mosquitto:mosquitto_passwd mosquitto
}

typecheck() {
    # mypy strict (pyproject.toml) over the package, then bench/ and the tests one folder
    # at a time: pytest puts each test folder on sys.path (helpers are imported by their
    # bare name) and several folders hold a conftest.py, which one mypy run cannot tell
    # apart. Helpers other folders borrow: tests/engine's reference rules (the referee's
    # fuzzing), puzzle record (the puzzle tests of tests/cli and tests/web) and advice
    # cases (bench_judge_truth.py),
    # tests/host/voice's spoken conformance games (the page's voice test),
    # tests/web's (bench_web.py), tests/club's (bench_club.py), tests/host/referee's
    # games (a bench).
    local d rc=0
    "$VENV/bin/mypy" || rc=1
    # firmware/ is MicroPython: checked against the Pico's MicroPython 1.28 stubs, and its
    # fakes against the same interfaces (firmware/hw_types.pyi; CONTRIBUTING.md says how)
    "$VENV/bin/python" tests/firmware/check_firmware.py typecheck firmware || rc=1
    MYPYPATH=tests/web:tests/host/referee:tests/engine:tests/club "$VENV/bin/mypy" bench || rc=1
    "$VENV/bin/mypy" tests/*.py || rc=1
    for d in tests/*/; do
        MYPYPATH=tests/engine:tests/host/voice "$VENV/bin/mypy" "$d" || rc=1
    done
    return $rc
}

ensure_node() {
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        echo "== node/npm not found: installing Debian's nodejs" >&2
        apt_install nodejs:node npm
    fi
}

npm_ci() {
    # `npm ci` in the folder when node_modules is missing or older than the lock file
    # (the stamp names the lock's hash).
    local dir=$1 what=$2 stamp
    stamp=$dir/node_modules/.keezbord-$(sha1sum "$dir/package-lock.json" | cut -c1-12)
    if [ ! -f "$stamp" ]; then
        echo "== npm ci in $dir ($what)" >&2
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
        touch "$stamp"
    fi
}

check_scripts() {
    # The page's scripts (keezbord/host/web/static) and the club's (keezbord/host/club/
    # static): TypeScript's checkJs over the plain scripts and their JSDoc types, nothing
    # built or emitted; typescript pinned by ./package-lock.json. One program per page
    # set (tsconfig.json, tsconfig.club.json): they share no globals.
    ensure_node
    npm_ci . "typescript, the scripts' checker"
    local rc=0
    node_modules/.bin/tsc -p tsconfig.json || rc=1
    node_modules/.bin/tsc -p tsconfig.club.json || rc=1
    return $rc
}

ensure_emulator() {
    # The emulated-Pico tests (tests/emulator) run rp2040js under Node 20, pinned by
    # tests/emulator/package-lock.json: `npm ci` when node_modules is missing or older
    # than the lock file (the stamp names the lock's hash; emu.py checks the same one).
    ensure_node
    npm_ci tests/emulator "rp2040js for the emulated Pico"
}

ensure_appliance_tools() {
    # tests/appliance: systemd-analyze verifies the generated units (Debian's systemd),
    # zbarimg reads the page's QR code back (zbar-tools). tests/rehearsal: debootstrap
    # builds the Bookworm root once (cached in /var/cache/keezbord-rehearsal), and
    # systemd-nspawn (systemd-container) boots it.
    apt_install systemd:systemd-analyze zbar-tools:zbarimg debootstrap \
        systemd-container:systemd-nspawn
}

ensure_kicad() {
    # tests/hardware check the generated PCBs with kicad-cli (ERC, DRC with schematic
    # parity, exports) and fill their zones with pcbnew's Python module, which is built for
    # Debian's /usr/bin/python3. Bookworm's main has KiCad 6 (no kicad-cli): KiCad 9 comes
    # from bookworm-backports, added as a deb822 suite beside debian.sources. The symbol,
    # footprint and 3D libraries are not needed (the generated files carry their own).
    command -v kicad-cli >/dev/null 2>&1 && return 0
    local list=/etc/apt/sources.list.d/bookworm-backports.sources
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    if [ ! -f "$list" ]; then
        echo "== adding Debian's bookworm-backports suite (KiCad 9)" >&2
        printf '%s\n' 'Types: deb' 'URIs: http://deb.debian.org/debian' \
            'Suites: bookworm-backports' 'Components: main' \
            'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
            $SUDO tee "$list" >/dev/null
    fi
    echo "== installing Debian's kicad from bookworm-backports" >&2
    $SUDO apt-get update -qq
    APT_UPDATED=1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        -t bookworm-backports kicad >/dev/null
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
        ensure_mosquitto
        ensure_voice
        ensure_emulator
        ensure_appliance_tools
        ensure_kicad
        echo "== ruff" >&2
        "$VENV/bin/ruff" check .
        "$VENV/bin/ruff" format --check .
        echo "== mypy" >&2
        typecheck
        echo "== tsc (the page's and the club's scripts)" >&2
        check_scripts
        echo "== pytest" >&2
        exec "$VENV/bin/python" -m pytest "$@"
        ;;
    mypy)
        venv
        typecheck
        ;;
    tsc)
        check_scripts
        ;;
    *)
        echo "usage: ./dev.sh sim [options] | ./dev.sh test [pytest options] | ./dev.sh mypy | ./dev.sh tsc" >&2
        exit 2
        ;;
esac
