#!/usr/bin/env bash
# Line and branch coverage, measured with llvm-cov, of the code that reads untrusted input:
# the decoders (Sources/SoundStageCore/Decoding) and the scene format (Sources/SoundStageScenes),
# by the offline tests (SoundStageTests, as the quick tier runs them), in a build folder of its
# own (.build-coverage: an instrumented build, about as long as the usual one).
#
#   scripts/coverage.sh            measure and print the table, then each folder's totals
#                                  against the goal (90 % of lines, 80 % of branches; for
#                                  Swift, of regions: see below)
#   scripts/coverage.sh FOLDER...  other folders of Sources (e.g. Sources/SoundStageSession)
#
# Exits 0 whether or not the goal is met: it is a measure, recorded in RELIABILITY.md, not a
# gate (the tiers are scripts/test.sh's).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" sox vorbis-tools flac opus-tools lame mpg123

folders=("$@")
[[ ${#folders[@]} -gt 0 ]] || folders=(Sources/SoundStageCore/Decoding Sources/SoundStageScenes)
scratch=.build-coverage
swift build --build-tests --enable-code-coverage --scratch-path "$scratch"
# As the tiers run them: OpenAL Soft's error traps on, the offline tests on the loopback device.
ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1 SWIFT_BACKTRACE=enable=no SOUNDSTAGE_TIMING_TESTS=later \
    swift test --skip-build --enable-code-coverage --scratch-path "$scratch" --filter '^SoundStageTests\.' > "$scratch/tests.log" 2>&1 \
    || { tail -n 40 "$scratch/tests.log"; echo "the tests failed: coverage not measured" >&2; exit 1; }
grep -E "^✔ Test run|^Executed" "$scratch/tests.log" || true
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
profile="$bin/codecov/default.profdata"
[[ -f $profile ]] || { echo "no profile at $profile" >&2; exit 1; }
llvm_cov=$(dirname "$(command -v swift)")/llvm-cov
report() { "$llvm_cov" report "$bin/SoundStagePackageTests.xctest" -instr-profile="$profile" -show-branch-summary "$@"; }
report "${folders[@]}"
echo
# Each folder's totals: the TOTAL row's columns are regions (3), functions (3), lines (3),
# branches (3), each as count, missed, cover. Swift's instrumentation counts regions, not
# branches (llvm-cov shows 0 branches for Swift code): each side of an `if`, a `guard`, a
# `switch` case or a `??` is a region of its own, so regions stand in for branches there.
for folder in "${folders[@]}"; do
    report "$folder" | awk -v folder="$folder" '/^TOTAL/ {
        lines = $10; sub(/%/, "", lines)
        if ($11 > 0) { kind = "branches"; count = $11; missed = $12; cover = $13 }
        else { kind = "regions (Swift counts no branches)"; count = $2; missed = $3; cover = $4 }
        sub(/%/, "", cover)
        printf "%s: lines %s %% (%d of %d), %s %s %% (%d of %d); goal 90 %% and 80 %%: %s\n", folder,
            lines, $8 - $9, $8, kind, cover, count - missed, count, (lines + 0 >= 90 && cover + 0 >= 80) ? "met" : "not met"
    }'
done
