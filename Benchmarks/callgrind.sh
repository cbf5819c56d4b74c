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
    # The voices moved in place do the C loop's work as the C loop does it; setPositions
    # (voices) is given an array of moves, and so is its C loop.
    case "$w" in setters-batch|setters-bulk) cw=setters-deferred ;; voices-inplace) cw=voices ;; voices) cw=voices-moves ;; *) cw=$w ;; esac
    s=$(( $(count "$w-swift") - base )); c=$(( $(count "$cw-c") - base ))
    echo "| $w | $s | $c | $(awk -v s="$s" -v c="$c" 'BEGIN { printf "%.3f", s / c }') |"
done
# tick_table TITLE MEASURE MORE FEWER VOICE_TICKS: a table of the voice tick, SoundStage beside
# the C loop, each figure `MEASURE workload ticks` at MORE ticks less the same at FEWER, over
# VOICE_TICKS (the voices times the ticks between): the plays (SoundStage) and the set-up
# (both) drop out.
tick_table() {
    local measure=$2 more=$3 fewer=$4 voice_ticks=$5 s
    echo
    echo "$1"
    echo
    echo "| tick | SoundStage | raw C | ratio |"
    echo "|---|---|---|---|"
    per() { awk -v a="$1" -v b="$2" -v n="$voice_ticks" 'BEGIN { printf "%.3f", (a - b) / n }'; }
    # setPositions (voices) beside the C loop given the same array of moves; moved in place
    # beside the C loop that moves in place; and setPositions beside that loop, for reference.
    local -A figure
    local w row
    for w in voices-moves-c voices-c voices-swift voices-inplace-swift; do figure[$w]=$(per "$($measure "$w" "$more")" "$($measure "$w" "$fewer")"); done
    for row in "voices voices-moves-c" "voices-inplace voices-c" "voices voices-c"; do
        set -- $row
        s=${figure[$1-swift]}
        echo "| $1 (C: $2) | $s | ${figure[$2]} | $(awk -v s="$s" -v c="${figure[$2]}" 'BEGIN { printf "%.2f", s / c }') |"
    done
}
# The tick alone: instructions, 40 ticks less 20, of 10,000 voices.
instructions() { count "$1" --ticks "$2"; }
tick_table "The voice tick alone: instructions a voice a tick (20 ticks more of 10,000 voices)" instructions 40 20 200000
# Memory: the tick's last-level cache misses at 100,000 voices (8 ticks less 4), under
# cachegrind's model of a 1 MiB last level: the L2 a core had on the machine where 100,000
# voices ran farthest behind the C loop. Lines of 64 bytes read from memory, a voice a tick.
misses() {
    local name="$1-$2-miss"
    valgrind --tool=cachegrind --cache-sim=yes --LL=1048576,16,64 --cachegrind-out-file="$out/$name.out" "$out/soundstage-bench" \
        --workload "$1" --voices 100000 --ticks "$2" >/dev/null 2>"$out/$name.log"
    # Data read and write misses at the last level.
    awk '/^summary:/ { print $7 + $10 }' "$out/$name.out"
}
tick_table "The voice tick's memory at 100,000 voices: last-level misses a voice a tick (1 MiB last level modelled)" misses 8 4 400000
