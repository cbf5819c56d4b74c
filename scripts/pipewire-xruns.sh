#!/bin/bash
# Gaps at a PipeWire sink, with or without SoundStage: is it the server or the game?
#
#   scripts/pipewire-xruns.sh [--seconds 60] [--force-quantum N] [--plain] [--game [--openal 1.23]]
#                             [--parec-ms 10] [--latency safe|none|...]
#
# Starts a private PipeWire 0.3.65 (dbus, pipewire, wireplumber, pipewire-pulse, a null sink),
# plays a 300 Hz tone with paplay (--plain) and/or `soundstage session --latency safe --tone
# 440` (--game; --latency none: OpenAL Soft's own periods), records the sink's monitor with parec (asking --parec-ms of latency), and
# counts the gaps in the tone (two samples in a row under 1e-3: a quantum the server left
# silent). pw-top's view of the nodes (QUANT, ERR: the node's xruns) is printed at the end.
# --force-quantum sets PipeWire's clock.force-quantum (pw-metadata -n settings).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60 force="" plain=0 game=0 openal="" parecms=10 latency=safe
while [[ $# -gt 0 ]]; do
    case $1 in
        --seconds) seconds=$2; shift ;;
        --force-quantum) force=$2; shift ;;
        --plain) plain=1 ;;
        --game) game=1 ;;
        --openal) openal=$2; shift ;;
        --parec-ms) parecms=$2; shift ;;
        --latency) latency=$2; shift ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
source scripts/lib.sh
dir=$(mktemp -d /tmp/pipewire-xruns.XXXXXX)
export XDG_RUNTIME_DIR=$dir DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/bus PULSE_SERVER=unix:$dir/pulse/native
pids=()
cleanup() { tmux -L "xruns-$$" kill-server 2>/dev/null || true; kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT
dbus-daemon --session --nofork --address="$DBUS_SESSION_BUS_ADDRESS" >/dev/null 2>&1 & pids+=($!)
wait_for_file "$dir/bus"
XDG_STATE_HOME=$dir/state pipewire >/dev/null 2>&1 & pids+=($!)
wait_for_file "$dir/pipewire-0"
XDG_STATE_HOME=$dir/state wireplumber >/dev/null 2>&1 & pids+=($!)
XDG_STATE_HOME=$dir/state pipewire-pulse >/dev/null 2>&1 & pids+=($!)
for _ in $(seq 1 100); do pactl info >/dev/null 2>&1 && break; sleep 0.05; done
pactl load-module module-null-sink sink_name=out >/dev/null
sleep 0.3
pactl set-default-sink out
[[ -n $force ]] && pw-metadata -n settings 0 clock.force-quantum "$force" >/dev/null
if [[ $plain == 1 ]]; then
    sox -n -r 48000 -c 2 -b 16 "$dir/tone.wav" synth $((seconds + 10)) sine 300 vol 0.5
    paplay --latency-msec=120 "$dir/tone.wav" & pids+=($!)
fi
parec --latency-msec="$parecms" -d out.monitor --raw --format=float32le --channels=1 --rate=48000 > "$dir/rec.raw" & pids+=($!)
if [[ $game == 1 ]]; then
    library=${openal:+$(openal_1_23_dir)}
    mode=(--latency "$latency")
    [[ $latency == none ]] && mode=()
    env ALSOFT_DRIVERS=pulse ${library:+LD_LIBRARY_PATH=$library} "$(swift build --show-bin-path)/soundstage" session "${mode[@]}" --tone 440 \
        --seconds "$seconds" > "$dir/session.log" 2>&1 & pids+=($!)
fi
tmux -L "xruns-$$" new-session -d -x 160 -y 40 "env XDG_RUNTIME_DIR=$dir pw-top"
sleep "$seconds"
tmux -L "xruns-$$" capture-pane -p | grep -E "ERR|paplay|parec|soundstage|SoundStage|out|Dummy|Freewheel" || true
pactl list sink-inputs | grep -E "application.name|node.latency|Latency" || true
python3 - "$dir/rec.raw" <<'PY'
import array, sys
a = array.array("f")
data = open(sys.argv[1], "rb").read()
a.frombytes(data[: len(data) // 4 * 4])
blocks = [i for i in range(0, len(a), 4800) if max((abs(x) for x in a[i:i + 4800]), default=0) > 0.1]
if not blocks:
    sys.exit("no tone recorded")
first, last = blocks[0] + 4800, blocks[-1]
gaps, i = [], first
while i < last:
    if abs(a[i]) < 1e-3 and abs(a[i + 1]) < 1e-3:
        start = i
        while i < last and abs(a[i]) < 1e-3:
            i += 1
        gaps.append(f"{start / 48000:.1f} s {(i - start) / 48:.1f} ms")
    i += 1
print(f"{(last - first) / 48000:.1f} s of tone, {len(gaps)} gaps {gaps[:8]}")
PY
