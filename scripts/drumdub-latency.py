#!/usr/bin/env python3
"""Key to screen in drumdub: how long after a key the screen shows the snare struck (the `*`
beside its meter, drawn as the key is handled) and its meter lit (the sound's level, measured
by the engine as it mixes).

Runs drumdub (the build given, debug by default) in a tmux terminal of its own on the sound
server the environment names (PULSE_SERVER), presses 1 (the snare) N times, and after each
polls the screen (tmux capture-pane, every millisecond) until both show. Prints every figure,
the medians and the largest, in milliseconds. Key to sound is measured by
content at the sink's monitor in the live tier's game tests (DrumDubGameTests, printed as
"drumdub snare key ... onset N ms"); see BENCHMARKS.md.

    PULSE_SERVER=unix:/run/user/1000/pulse/native scripts/drumdub-latency.py [--presses N] [--drumdub PATH] [--latency MODE]
"""
import argparse, os, statistics, subprocess, sys, time

parser = argparse.ArgumentParser()
parser.add_argument("--presses", type=int, default=20)
parser.add_argument("--drumdub", default=".build/debug/drumdub")
parser.add_argument("--latency", default=None)
args = parser.parse_args()

socket = f"drumdub-latency-{os.getpid()}"
def tmux(*words):
    return subprocess.run(["tmux", "-L", socket, *words], capture_output=True, text=True).stdout
def snare_row():
    return next((l for l in tmux("capture-pane", "-p").splitlines() if " 1 snare " in l), "")
def lit(row): return "#" in row.split("1 snare", 1)[-1]
def flashed(row): return "*" in row.split("1 snare", 1)[-1]

command = [os.path.abspath(args.drumdub), "--assets", os.path.abspath("assets")] + (["--latency", args.latency] if args.latency else [])
tmux("new-session", "-d", "-x", "80", "-y", "24", " ".join(command))
try:
    deadline = time.monotonic() + 10
    while "1 snare" not in tmux("capture-pane", "-p"):
        if time.monotonic() > deadline: sys.exit("drumdub did not draw its screen")
        time.sleep(0.05)
    time.sleep(1)
    flashes, meters = [], []
    for _ in range(args.presses):
        while lit(snare_row()) or flashed(snare_row()): time.sleep(0.02)   # the last hit has faded
        time.sleep(0.3)
        sent = time.monotonic()
        tmux("send-keys", "1")
        flash = meter = None
        while (flash is None or meter is None) and time.monotonic() - sent < 1:
            row = snare_row()
            now = (time.monotonic() - sent) * 1000
            if flash is None and flashed(row): flash = now
            if meter is None and lit(row): meter = now
            time.sleep(0.001)
        flashes.append(flash if flash is not None else 1000.0)
        meters.append(meter if meter is not None else 1000.0)
    output = next((l for l in tmux("capture-pane", "-p").splitlines() if l.startswith("output")), "")
    print(output)
    print("key to the struck mark (ms): " + " ".join(f"{f:.1f}" for f in flashes))
    print("key to the lit meter (ms): " + " ".join(f"{f:.1f}" for f in meters))
    print(f"struck mark: median {statistics.median(flashes):.1f} ms, largest {max(flashes):.1f} ms; "
          f"meter: median {statistics.median(meters):.1f} ms, largest {max(meters):.1f} ms; over {len(flashes)} presses")
finally:
    tmux("kill-server")
