#!/usr/bin/env bash
# Builds and runs drumdub. Installs the system packages it needs when missing.
# In a terminal with a working output device (a sound server or sound card), it starts the
# game; without a terminal, or when no output device opens, it renders the scripted demo
# groove offline to drumdub.wav instead (drumdub --script assets/grooves/demo.txt).
# Extra arguments go to drumdub (e.g. scripts/demo.sh --hrtf).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}"
# Quiet: SwiftPM's fetch and compile lines go to a log, shown only when the build fails.
log=.build/demo-build.log
mkdir -p .build
echo "==> building drumdub (release)" >&2
if ! swift build -c release --product drumdub >"$log" 2>&1; then
    cat "$log" >&2
    exit 1
fi
render() {
    echo "==> rendering the demo groove offline to drumdub.wav instead (drumdub --script assets/grooves/demo.txt --render drumdub.wav)"
    .build/release/drumdub --script assets/grooves/demo.txt --render drumdub.wav --screen drumdub-screen.txt
    cat drumdub-screen.txt
}
if [ ! -t 0 ] || [ ! -t 1 ]; then
    echo "==> no terminal here"
    render
    exit 0
fi
status=0
.build/release/drumdub "$@" || status=$?
case "$status" in
    3|4) render ;;   # drumdub said why, in one line
    *) exit "$status" ;;
esac
