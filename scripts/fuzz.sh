#!/usr/bin/env bash
# Fuzzes SoundStage with libFuzzer (swiftc -sanitize=fuzzer,address): one binary, built once,
# holds every target; SOUNDSTAGE_FUZZ_TARGET picks one.
#
#   scripts/fuzz.sh TARGET [seconds]   one target (default 600 s)
#   scripts/fuzz.sh all [seconds]      every target, as many at once as there are cores
#                                      (scripts/test.sh --full runs this for 30 s each)
#   scripts/fuzz.sh build              only build the fuzzer (scripts/test.sh --full builds it
#                                      beside the ten-minute playlist, at low priority)
#
# Targets: wav aiff caf ogg opus flac mp3 (the decoders), scene (the JSON scene parser, small
# scenes rendered), api (random sequences of public API calls on an offline engine). Every
# target runs under OpenAL Soft's error traps, so an OpenAL error is a crash.
#
# Seeds come from Fuzz/corpus/<target> (the decoders' made by Fuzz/make-seeds.sh when
# missing); new interesting inputs are kept in .build-fuzz/corpus/<target>, crashes in
# .build-fuzz/crashes/<target>. Commit a crashing input as a regression test in
# Tests/SoundStageTests/Fixtures/fuzz and Tests/SoundStageTests/FuzzRegressionTests.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" sox vorbis-tools flac opus-tools lame
ensure_swift

targets=(wav aiff caf ogg opus flac mp3 scene api)
target=${1:?usage: scripts/fuzz.sh ${targets[*]}|all [seconds]}
seconds=${2:-600}
out=.build-fuzz
binary=$out/fuzz
sources=$(find Sources/SoundStage Fuzz -name '*.swift' | sort)

# Builds the binary when a source is newer than it.
build() {
    if [[ -f $binary ]] && [[ -z $(find Sources/SoundStage Sources/CSignalRelay Fuzz -newer "$binary" -name '*.[ch]' -o -newer "$binary" -name '*.swift' | head -1) ]]; then
        return
    fi
    mkdir -p "$out"
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
    echo "==> building the fuzzer ($binary)"
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -use-ld=lld -parse-as-library -O -g -module-name SoundStage \
        -I "$out" -L "$out" -lLogging \
        -I Sources/COpenAL -I Sources/CVorbis -I Sources/CFLAC -I Sources/COpus -I Sources/CMPG123 -I Sources/CALUT \
        -I Sources/CPulse -I Sources/CSystemd -I "$out/CSignalRelay" -Xcc -I/usr/include/opus \
        $sources "$out/relay.o" -o "$binary"
}

run() {
    local t=$1
    mkdir -p "$out/corpus/$t" "$out/crashes/$t"
    [[ -n $(ls -A "Fuzz/corpus/$t" 2>/dev/null) ]] || Fuzz/make-seeds.sh
    local dict=()
    [[ -f Fuzz/$t.dict ]] && dict=(-dict="Fuzz/$t.dict")
    echo "==> fuzzing $t for $seconds s"
    local log=$out/$t.log status=0
    SOUNDSTAGE_FUZZ_TARGET=$t ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1 ALSOFT_DRIVERS=null SWIFT_BACKTRACE=enable=no \
        LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp" "$binary" "$out/corpus/$t" "Fuzz/corpus/$t" "${dict[@]}" \
        -max_total_time="$seconds" -max_len=65536 -malloc_limit_mb=512 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$out/crashes/$t/" > "$log" 2>&1 || status=$?
    tail -n 25 "$log"
    return "$status"
}

build
[[ $target == build ]] && exit 0
if [[ $target == all ]]; then
    jobs=$(nproc)
    failed=()
    # Each target alone in its log; a batch of $jobs at once (libFuzzer uses one core each).
    for ((i = 0; i < ${#targets[@]}; i += jobs)); do
        batch=("${targets[@]:i:jobs}")
        pids=()
        for t in "${batch[@]}"; do run "$t" > "$out/$t.summary" 2>&1 & pids+=($!); done
        for j in "${!batch[@]}"; do
            wait "${pids[$j]}" || failed+=("${batch[$j]}")
            grep -E "^==> fuzzing|^Done [0-9]+ runs" "$out/${batch[$j]}.summary" || true
        done
    done
    if (( ${#failed[@]} )); then
        for t in "${failed[@]}"; do echo "==> $t:"; cat "$out/$t.summary"; done
        echo "==> fuzzing found crashes in: ${failed[*]} (see $out/crashes)"
        exit 1
    fi
    echo "==> every target ran $seconds s clean: ${targets[*]}"
    exit 0
fi
run "$target"
