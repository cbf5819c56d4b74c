#!/usr/bin/env bash
# Fuzzes SoundStage's parsers with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   scripts/fuzz.sh wav|aiff|caf|ogg|opus|flac|mp3 [seconds]   one parser (default 600 s)
#   scripts/fuzz.sh all [seconds]                  every parser, one after the other
#
# Seeds come from Fuzz/corpus/<parser> (made by Fuzz/make-seeds.sh when missing); new
# interesting inputs are kept in .build-fuzz/corpus/<parser>, crashes in
# .build-fuzz/crashes/<parser>. Commit a crashing input as a regression test in
# Tests/SoundStageTests/Fixtures/fuzz and Tests/SoundStageTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" sox vorbis-tools flac opus-tools lame
ensure_swift

target=${1:?usage: scripts/fuzz.sh wav|aiff|caf|ogg|opus|flac|mp3|all [seconds]}
seconds=${2:-600}
if [[ $target == all ]]; then
    for t in wav aiff caf ogg opus flac mp3; do "$0" "$t" "$seconds"; done
    exit 0
fi
flag=$(echo "FUZZ_$target" | tr a-z A-Z)
out=.build-fuzz
mkdir -p "$out/corpus/$target" "$out/crashes/$target"
[[ -n $(ls -A "Fuzz/corpus/$target" 2>/dev/null) ]] || Fuzz/make-seeds.sh
binary=$out/fuzz-$target
# swift-log, SoundStage's one package dependency, as a module of its own (resolved by SwiftPM).
[[ -d .build/checkouts/swift-log ]] || swift package resolve
if [[ ! -f $out/Logging.swiftmodule ]]; then
    swiftc -parse-as-library -O -module-name Logging -package-name swift_log -emit-module -emit-module-path "$out/Logging.swiftmodule" \
        -emit-library -static -o "$out/libLogging.a" $(find .build/checkouts/swift-log/Sources/Logging -name '*.swift' | sort)
fi
# The C signal relay, as SwiftPM builds it: a module map over its header, and its object.
mkdir -p "$out/CSignalRelay"
printf 'module CSignalRelay {\n    header "%s"\n    export *\n}\n' "$PWD/Sources/CSignalRelay/include/CSignalRelay.h" > "$out/CSignalRelay/module.modulemap"
clang -O2 -c -I Sources/CSignalRelay/include Sources/CSignalRelay/relay.c -o "$out/relay.o"
sources=$(find Sources/SoundStage -name '*.swift' | sort)
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -D "$flag" -module-name SoundStage \
    -I "$out" -L "$out" -lLogging \
    -I Sources/COpenAL -I Sources/CVorbis -I Sources/CFLAC -I Sources/COpus -I Sources/CMPG123 -I Sources/CALUT \
    -I Sources/CPulse -I Sources/CSystemd -I "$out/CSignalRelay" -Xcc -I/usr/include/opus \
    $sources Fuzz/FuzzTarget.swift "$out/relay.o" -o "$binary"
echo "fuzzing the $target parser for $seconds s"
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" "$binary" "$out/corpus/$target" "Fuzz/corpus/$target" -max_total_time="$seconds" -max_len=65536 \
    -malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$out/crashes/$target/" 2>&1 | tail -n 25
