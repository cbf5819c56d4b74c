#!/usr/bin/env bash
# Restarts a private PipeWire under an OpenAL Soft program that opens the default output and
# creates a context on it every 50 ms (scripts/probes/open-and-create.c), as an engine that
# lost its device does at its shortest wait, and counts what the restarts gave: which devices
# it opened, and how many opens and context creations failed. The restarted server has no sink for its first
# second (as a desktop's, before its cards' sinks come), and shows its placeholder meanwhile.
# What README's "a server's placeholder sink" cites.
#
#   scripts/restart-probe.sh [RESTARTS]   (default 8)
#
# With LD_LIBRARY_PATH=.build/openal-1.23.1 it probes OpenAL Soft 1.23.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" "${SOUNDSTAGE_TEST_PACKAGES[@]}"
restarts=${1:-8}
mkdir -p .build
cc=$(command -v cc || command -v clang)
"$cc" -O1 -o .build/open-and-create scripts/probes/open-and-create.c -lopenal

# Each attempt's line, put in the phase it began in: before the kill, between the kill and the
# restarted server answering (the old server going, or none), after.
summarize() {
    awk -v killed="$1" -v back="$2" '
        { phase = $1 < killed ? "before" : $1 < back ? "going" : "after" }
        / failed / { failed[phase]++; if (phase == "after") { sub(/^[0-9.]* /, ""); failures[$0]++ } }
        /opened/ && phase == "after" { match($0, /opened .[^\x27]*/); opened[substr($0, RSTART + 8, RLENGTH - 8)]++ }
        END {
            printf "failed before the kill %d, while it went %d, after the restart %d; opened after the restart:", failed["before"], failed["going"], failed["after"]
            for (name in opened) printf " %d x \x27%s\x27", opened[name], name
            print ""
            for (line in failures) printf "    %d x %s\n", failures[line], line
        }' "$3"
}

withFailure=0
for run in $(seq 1 "$restarts"); do
    start_private_pipewire
    trap 'stop_private_pipewire' EXIT
    log=$SOUNDSTAGE_PIPEWIRE_DIR.probe
    # The pulse backend only: OpenAL Soft would fall back to ALSA while the server is away.
    ALSOFT_DRIVERS=pulse timeout 10 .build/open-and-create 5 > "$log" 2>/dev/null &
    probe=$!
    sleep 0.5
    killed=$(date +%s.%N)
    stop_private_pipewire --keep
    # As a desktop's server restarted before its cards' sinks come: no sink for a second, and
    # the server shows its placeholder meanwhile.
    SOUNDSTAGE_PIPEWIRE_SINK=0 start_private_pipewire "$SOUNDSTAGE_PIPEWIRE_DIR"
    back=$(date +%s.%N)
    sleep 1
    pactl load-module module-null-sink sink_name=later >/dev/null || echo "    (pactl load-module: no answer)"
    status=0
    wait "$probe" || status=$?
    [[ $status == 0 ]] || echo "    (the probe ended with status $status)"
    summary=$(summarize "$killed" "$back" "$log")
    echo "restart $run: $summary"
    if ! grep -q "after the restart 0;" <<< "$summary"; then withFailure=$((withFailure + 1)); fi
    stop_private_pipewire
    [[ -n ${KEEP_PROBE_LOGS:-} ]] || rm -f "$log"
    trap - EXIT
done
echo "restarts after which an open or a context failed: $withFailure of $restarts"
