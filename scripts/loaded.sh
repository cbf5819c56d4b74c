#!/usr/bin/env bash
# Runs the live tier (Tests/SoundStageLiveTests: every test on the real sound server, one at a
# time) on a loaded machine, to show it holds there: with a busy loop on every core, or beside
# a release build of the package from scratch. Prints each run's time and failures, and ends
# non-zero if any run failed.
#
#   scripts/loaded.sh [RUNS]            RUNS runs (default 5), a busy loop on each core
#   scripts/loaded.sh --release-build   one run beside `swift build -c release` from scratch,
#                                       started again each time it ends
#
# The tests that measure the output itself on a quiet machine (a starved stream, the device
# lost a hundred times, the ten-minute playlist; their names say so) are left out: they are
# run apart, alone, by `scripts/test.sh --full`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" "${SOUNDSTAGE_TEST_PACKAGES[@]}"

runs=5
release=0
if [[ ${1:-} == --release-build ]]; then
    release=1
    runs=1
elif [[ $# -gt 0 ]]; then
    runs=$1
fi

swift build --build-tests
start_private_pulse
loads=()
cleanup() {
    # Each load is a process group of its own (setsid): the build's compilers go with it.
    for pid in "${loads[@]}"; do kill -- -"$pid" 2>/dev/null || true; done
    # SwiftPM starts its compilers in process groups of their own.
    [[ $release == 1 ]] && pkill -f '\.build-loaded/' 2>/dev/null || true
    wait 2>/dev/null || true
    stop_pulse
}
trap cleanup EXIT
export ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1 SWIFT_BACKTRACE=enable=no SOUNDSTAGE_E2E=1
# The quiet-machine tests are gated by this, as in the quick tier.
export SOUNDSTAGE_TIMING_TESTS=later

if [[ $release == 1 ]]; then
    # From scratch, again and again, so the whole run has it beside it.
    setsid bash -c 'while :; do rm -rf .build-loaded; swift build -c release --scratch-path .build-loaded || exit; done' > .build-loaded.log 2>&1 &
    loads+=($!)
    echo "==> beside release builds from scratch (log: .build-loaded.log)"
else
    for ((core = 0; core < $(nproc); core++)); do
        setsid bash -c 'while :; do :; done' &
        loads+=($!)
    done
    echo "==> with ${#loads[@]} busy loops, one on each core"
fi

failed=0
for ((run = 1; run <= runs; run++)); do
    began=$SECONDS
    log=.build/loaded-$run.log
    status=0
    swift test --skip-build --no-parallel --filter '^SoundStageLiveTests\.' > "$log" 2>&1 || status=$?
    # No summary when the test process crashed: grep finds nothing, and that is no reason to
    # end the runs (set -e with pipefail ended them here).
    summary=$(grep -E "^✔ Test run|^✘ Test run" "$log" | tail -1 || true)
    echo "==> run $run: $((SECONDS - began)) s, exit $status: ${summary:-no summary (see $log)}"
    if [[ $status != 0 ]]; then
        failed=$((failed + 1))
        grep -E "^✘ Test .* recorded an issue" "$log" | head -20 || true
    fi
    if [[ $release == 1 ]] && ! kill -0 "${loads[0]}" 2>/dev/null; then
        echo "==> the release build failed (see .build-loaded.log)"
    fi
done
echo "==> $runs runs, $failed failed"
[[ $failed == 0 ]]
