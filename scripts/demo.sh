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
swift build -c release --product drumdub
render() {
    echo "==> $1; rendering the demo groove offline instead (drumdub --script assets/grooves/demo.txt --render drumdub.wav)"
    .build/release/drumdub --script assets/grooves/demo.txt --render drumdub.wav --screen drumdub-screen.txt
    cat drumdub-screen.txt
}
if [ ! -t 0 ] || [ ! -t 1 ]; then
    render "no terminal here"
    exit 0
fi
status=0
.build/release/drumdub "$@" || status=$?
case "$status" in
    3) render "no output device here" ;;
    4) render "no terminal here" ;;
    *) exit "$status" ;;
esac
