#!/usr/bin/env bash
# Fuzzes SoundStage's parsers with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   scripts/fuzz.sh wav|aiff|caf|ogg|flac [seconds]   one parser (default 600 s)
#   scripts/fuzz.sh all [seconds]                  every parser, one after the other
#
# Seeds come from Fuzz/corpus/<parser> (made by Fuzz/make-seeds.sh when missing); new
# interesting inputs are kept in .build-fuzz/corpus/<parser>, crashes in
# .build-fuzz/crashes/<parser>. Commit a crashing input as a regression test in
# Tests/SoundStageTests/Fixtures/fuzz and Tests/SoundStageTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" sox vorbis-tools flac
ensure_swift

target=${1:?usage: scripts/fuzz.sh wav|aiff|caf|ogg|flac|all [seconds]}
seconds=${2:-600}
if [[ $target == all ]]; then
    for t in wav aiff caf ogg flac; do "$0" "$t" "$seconds"; done
    exit 0
fi
flag=$(echo "FUZZ_$target" | tr a-z A-Z)
out=.build-fuzz
mkdir -p "$out/corpus/$target" "$out/crashes/$target"
[[ -d Fuzz/corpus/$target ]] || Fuzz/make-seeds.sh
binary=$out/fuzz-$target
sources=$(find Sources/SoundStage -name '*.swift' | sort)
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D "$flag" -module-name SoundStage \
    -I Sources/COpenAL -I Sources/CVorbis -I Sources/CFLAC -I Sources/CALUT -I Sources/CPulse -I Sources/CSystemd \
    $sources Fuzz/FuzzTarget.swift -o "$binary"
echo "fuzzing the $target parser for $seconds s"
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" "$binary" "$out/corpus/$target" "Fuzz/corpus/$target" -max_total_time="$seconds" -max_len=65536 \
    -malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$target/" 2>&1 | tail -n 25
