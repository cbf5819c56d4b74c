#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of small fixed workloads, SoundStage and raw
# C side by side. Counts, unlike times, repeat exactly on a busy machine.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
swift build -c release --product soundstage-bench >&2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Valgrind 3.19 gives up on the release binary's debug info ("possibly corrupted debuginfo
# file"); a copy without it counts the same instructions.
objcopy --strip-debug .build/release/soundstage-bench "$out/soundstage-bench"
# The null backend: every workload renders through the loopback device, and OpenAL Soft's
# probing of its other backends at the first device counts too (the C voices workload counted
# 38.8 M instructions without this line, no server running, and 23.5 M with it).
export ALSOFT_DRIVERS=null
# count WORKLOAD [OPTIONS...]: the instructions of one run.
count() {
    local name="$1${2:+-${*:2}}"
    name=${name// /}
    valgrind --tool=callgrind --callgrind-out-file="$out/$name.out" "$out/soundstage-bench" --workload "$@" >/dev/null 2>"$out/$name.log"
    grep -E '^(summary|totals):' "$out/$name.out" | head -1 | awk '{print $2}'
}
# Process start-up (Swift runtime, OpenAL Soft initialisation) is counted once and subtracted.
base=$(count none)
echo "start-up, subtracted below: $base instructions"
echo
echo "| workload | SoundStage (instructions) | raw C (instructions) | ratio |"
echo "|---|---|---|---|"
workloads="setters setters-batch setters-bulk mix voices voices-inplace volume"
# Decoding the 5-minute Ogg file, once the full benchmark has made it (make bench).
[ -f .build/bench-assets/five-minutes.ogg ] && workloads="$workloads decode"
for w in $workloads; do
    # A batch (and the bulk set inside one) defers its changes: its C counterpart defers too.
    # The voices moved in place do the C loop's work as the C loop does it.
    case "$w" in setters-batch|setters-bulk) cw=setters-deferred ;; voices-inplace) cw=voices ;; *) cw=$w ;; esac
    s=$(( $(count "$w-swift") - base )); c=$(( $(count "$cw-c") - base ))
    echo "| $w | $s | $c | $(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.3f", s / c }') |"
done
# The tick alone: the same workload counted with 40 ticks and with 20; the difference is 20
# ticks of 10,000 moving voices, with the plays (SoundStage) and the set-up (both) taken out.
echo
echo "The voice tick alone: instructions a voice a tick (20 ticks more of 10,000 voices)"
echo
echo "| tick | SoundStage | raw C | ratio |"
echo "|---|---|---|---|"
per_voice_tick() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (a - b) / 200000 }'; }
c=$(per_voice_tick "$(count voices-c --ticks 40)" "$(count voices-c --ticks 20)")
for w in voices voices-inplace; do
    s=$(per_voice_tick "$(count "$w-swift" --ticks 40)" "$(count "$w-swift" --ticks 20)")
    echo "| $w | $s | $c | $(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.3f", s / c }') |"
done
# Memory: the tick's last-level cache misses at 100,000 voices (8 ticks less 4), under
# cachegrind's model of a 1 MiB last level: the L2 a core had on the machine where 100,000
# voices ran farthest behind the C loop. Lines of 64 bytes read from memory, a voice a tick.
echo
echo "The voice tick's memory at 100,000 voices: last-level misses a voice a tick (1 MiB last level modelled)"
echo
echo "| tick | SoundStage | raw C | ratio |"
echo "|---|---|---|---|"
misses() {
    local name="$1-$2-miss"
    valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --cachegrind-out-file="$out/$name.out" "$out/soundstage-bench" \
        --workload "$1" --voices 100000 --ticks "$2" >/dev/null 2>"$out/$name.log"
    # Data read and write misses at the last level.
    awk '/^summary:/ { print $7 + $10 }' "$out/$name.out"
}
per_voice_miss() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (a - b) / 400000 }'; }
c=$(per_voice_miss "$(misses voices-c 8)" "$(misses voices-c 4)")
for w in voices voices-inplace; do
    s=$(per_voice_miss "$(misses "$w-swift" 8)" "$(misses "$w-swift" 4)")
    echo "| $w | $s | $c | $(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.2f", s / c }') |"
done
