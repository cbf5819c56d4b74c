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
