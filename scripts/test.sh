#!/usr/bin/env bash
# Runs SoundStage's tests. Installs the system packages it needs when they are missing,
# starts a headless PulseAudio server (null sink) for the end-to-end test, and runs
# `swift test` with OpenAL Soft's error traps on, so any OpenAL error aborts the run.
# Extra arguments go to `swift test` (e.g. scripts/test.sh --filter Spatial).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" "${SOUNDSTAGE_TEST_PACKAGES[@]}"
start_pulse
trap stop_pulse EXIT
export ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1
# OpenAL Soft traps by raising SIGTRAP; Swift's crash backtracer catches SIGTRAP and returns,
# which would let the run go on. With the backtracer off, an OpenAL error ends the run.
export SWIFT_BACKTRACE=enable=no
# The end-to-end test must run, not skip, when this script started the sound server.
export SOUNDSTAGE_E2E=1
# The timing tests on the real sound server (a stream starved for 300 ms, ten minutes of a
# playlist recorded for gaps) measure the output itself, which a loaded 2-core machine starves
# (OpenAL Soft's mixer thread misses the server's deadline). A whole run runs them apart from
# the rest: first, once the build is done, the starved stream alone on the machine (its
# recorded silence is compared with the reported one to 5 ms, or one mixer update more); after the
# main pass, the device lost a hundred times (a test that waits on a child in real time,
# starved for seconds beside the rest), then the ten-minute playlist beside the game's tests.
# A filtered run runs what it names.
# A whole run ends with five minutes of the soak offline (scripts/soak.sh: memory, gaps,
# OpenAL objects), the documentation built with no warning and 100 % of the public symbols
# documented (scripts/docs.sh), and every fuzz target for 60 s on its corpus (scripts/fuzz.sh).
if [[ $# -eq 0 ]]; then
    swift test --filter UnderrunTests
    SOUNDSTAGE_TIMING_TESTS=later swift test
    swift test --filter FaultInjectionDeviceLossTests
    swift test --filter "PlaylistServerTests|DrumDubGameTests"
    SOUNDSTAGE_SOAK=offline scripts/soak.sh 5
    scripts/docs.sh
    scripts/fuzz.sh all 60
else
    swift test "$@"
fi
