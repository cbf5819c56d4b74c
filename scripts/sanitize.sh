#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, as scripts/test.sh runs it (a headless
# PulseAudio server, OpenAL Soft's error traps):
#
#   scripts/sanitize.sh thread     ThreadSanitizer
#   scripts/sanitize.sh address    AddressSanitizer, with LeakSanitizer
#
# Extra arguments go to `swift test` (e.g. --filter PlayerTests). The build goes to
# .build-<sanitizer>. The timing tests on the real server (scripts/test.sh's second pass) are
# left out: a sanitizer slows the mixer's feeding several times, which is what they measure;
# so are three tests that count what real-time capture delivered or retries in wall time
# (SOUNDSTAGE_SANITIZER).
# Suppressions, only for third-party libraries and each with its reason, are in
# scripts/sanitizers/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
sanitizer=${1:?usage: scripts/sanitize.sh thread|address [swift test arguments]}
shift
case "$sanitizer" in thread|address) ;; *) echo "usage: scripts/sanitize.sh thread|address" >&2; exit 2 ;; esac
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" "${SOUNDSTAGE_TEST_PACKAGES[@]}"
start_pulse
trap stop_pulse EXIT
export ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1 SWIFT_BACKTRACE=enable=no SOUNDSTAGE_E2E=1
export SOUNDSTAGE_TIMING_TESTS=later SOUNDSTAGE_SANITIZER=$sanitizer
supp=$PWD/scripts/sanitizers
export TSAN_OPTIONS="suppressions=$supp/tsan.supp halt_on_error=0 report_signal_unsafe=0 ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1 ${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp ${LSAN_OPTIONS:-}"
log=.build-$sanitizer.log
status=0
swift test --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" "$@" 2>&1 | tee "$log" || status=$?
reports=$(grep -c -E "^WARNING: ThreadSanitizer|^==[0-9]+==ERROR: (AddressSanitizer|LeakSanitizer)" "$log" || true)
echo "==> $sanitizer sanitizer: $reports reports, swift test exit $status (log: $log)"
[[ $status -eq 0 && $reports -eq 0 ]]
