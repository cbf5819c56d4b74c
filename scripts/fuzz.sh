#!/usr/bin/env bash
# Fuzzes SoundStage with libFuzzer: the `soundstage-fuzz` target (Fuzz/), built by SwiftPM
# with -sanitize=fuzzer,address in a build folder of its own; SOUNDSTAGE_FUZZ_TARGET picks
# the target.
#
#   scripts/fuzz.sh TARGET [seconds]   one target (default 600 s)
#   scripts/fuzz.sh all [seconds]      every target, as many at once as there are cores
#                                      (scripts/test.sh --full runs this for 8 s each)
#   scripts/fuzz.sh build              only build the fuzzer
#   scripts/fuzz.sh all SECONDS built  fuzz with the fuzzer as it was last built, whatever
#                                      its commit (scripts/test.sh --full builds it earlier,
#                                      beside other phases: SwiftPM builds again whenever the
#                                      environment differs from the last build's, even in a
#                                      variable it does not use: FOO=1, then FOO=2, rebuilt
#                                      every target here)
#
# Targets: wav aiff caf ogg opus flac mp3 (the decoders), scene (the JSON scene parser, small
# scenes rendered), api (random sequences of public API calls on an offline engine). Every
# target runs under OpenAL Soft's error traps, so an OpenAL error is a crash.
#
# Seeds come from Fuzz/corpus/<target> (the decoders' made by Fuzz/make-seeds.sh when
# missing); new interesting inputs are kept in .build-fuzz/corpus/<target>, crashes in
# .build-fuzz/crashes/<target>. Commit a crashing input as a regression test in
# Tests/SoundStageTests/Fixtures/fuzz and Tests/SoundStageTests/Decoding/FuzzRegressionTests.swift;
# `swift run soundstage-fuzz TARGET FILE` replays one in a plain build.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" sox vorbis-tools flac opus-tools lame
ensure_swift

targets=(wav aiff caf ogg opus flac mp3 scene api)
target=${1:?usage: scripts/fuzz.sh ${targets[*]}|all [seconds [built]] or scripts/fuzz.sh build}
seconds=${2:-600}
out=.build-fuzz
binary=$out/spm/release/soundstage-fuzz

# Builds (or brings up to date) the fuzzer: release, every Swift and C target instrumented.
# SwiftPM passes its sanitizers as one -sanitize= flag each and swiftc keeps only the last, so
# the pair is given again as one flag after them (with SwiftPM's alone, only the fuzz target's
# own 32 branches were counted and libFuzzer found nothing to follow). lld links: gold warns
# about AddressSanitizer's runtime.
build() {
    echo "==> building the fuzzer ($binary)"
    swift build -c release --product soundstage-fuzz --scratch-path "$out/spm" \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
        -Xswiftc -DSOUNDSTAGE_FUZZER -Xswiftc -g -Xswiftc -use-ld=lld
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

if [[ ${3:-} == built ]]; then
    [[ -x $binary ]] || { echo "no fuzzer at $binary: run scripts/fuzz.sh build first" >&2; exit 1; }
else
    build
fi
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
