#!/usr/bin/env bash
# Builds and runs the drumdub demo. Installs the system packages it needs when missing.
# With a working output device (a sound server or sound card) the demo plays live; without
# one, it says so and this script renders the same scene offline to drumdub.wav instead.
# Extra arguments go to drumdub (e.g. scripts/demo.sh --seconds 20).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}"
swift build -c release --product drumdub
status=0
.build/release/drumdub "$@" || status=$?
if [ "$status" -eq 3 ]; then
    echo "==> no output device here; rendering the demo offline instead (drumdub --render drumdub.wav)"
    .build/release/drumdub --render drumdub.wav "$@"
else
    exit "$status"
fi
