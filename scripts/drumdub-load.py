#!/usr/bin/env python3
"""drumdub under a player's load, for minutes: does the machine hold the latency mode?

Starts a private PulseAudio 16.1 of its own (a null sink, its log at debug level), runs
drumdub (the build given, release by default) in a tmux terminal on it at the mode given, and
plays it for SECONDS: a drum every 125 ms (all four, in a pattern), a step or a turn every 2 s,
the next room reverb every 20 s, the music louder and softer every 30 s, the music playing
throughout. At the end it reads drumdub's output line (the mode it holds, its latency, the
output gaps its engine saw) and counts the underruns the server itself logged for the game's
stream ("end of underrun", PulseAudio's protocol-native), then quits the game with q.

Optionally the machine is loaded meanwhile: --busy N runs N busy loops, --beside-build runs
`swift build -c release` from scratch (in .build-load/, started again each time it ends).

    scripts/drumdub-load.py [--seconds 300] [--latency low] [--drumdub .build/release/drumdub]
                            [--busy N] [--beside-build] [--pipewire] [--monitor-ms 20]

--monitor-ms is the latency the sink's recorder asks (parec --latency-msec). A reader of the
sink's monitor sets how fast the sink runs: on PipeWire 20 ms makes the graph's quantum 512
frames whatever the game asked, so a game at .safe is measured on a graph four times quicker
than it would run alone; 200 lets the game's own latency set the quantum. With --pipewire,
pw-top's view of the nodes (their quantum and xrun count, ERR) is printed at the end.

Ends non-zero if drumdub stepped back from the mode, the server logged an underrun, or the
sink's monitor holds a dropout.
"""
import argparse, os, shutil, signal, subprocess, sys, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=float, default=300)
parser.add_argument("--latency", default="low")
parser.add_argument("--drumdub", default=".build/release/drumdub")
parser.add_argument("--busy", type=int, default=0)
parser.add_argument("--beside-build", action="store_true")
parser.add_argument("--pipewire", action="store_true")
parser.add_argument("--monitor-ms", type=int, default=20)
args = parser.parse_args()

root = tempfile.mkdtemp(prefix="drumdub-load.")
env = dict(os.environ, XDG_RUNTIME_DIR=f"{root}/run", HOME=root, PULSE_STATE_PATH=f"{root}/state",
           XDG_STATE_HOME=f"{root}/state", XDG_CONFIG_HOME=f"{root}/config")
env.pop("PULSE_SERVER", None)
os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
log = f"{root}/pulse.log"
socket = f"drumdub-load-{os.getpid()}"
loads = []

def tmux(*words):
    return subprocess.run(["tmux", "-L", socket, *words], capture_output=True, text=True, env=env).stdout
def screen():
    return tmux("capture-pane", "-p").splitlines()
def output_line():
    return next((l for l in screen() if l.startswith("output")), "")
def server_underruns():
    if args.pipewire: return 0
    with open(log, errors="replace") as f:
        return sum("end of underrun" in line for line in f)

def sink_dropouts(path, rate=48000):
    """Runs of exact silence in both channels, 0.5 ms to 0.5 s, with sound (-60 dBFS) within
    16 frames before and after: (seconds into the recording, milliseconds) each."""
    import array
    samples = array.array("f")
    with open(path, "rb") as f:
        data = f.read()
    samples.frombytes(data[: len(data) // 8 * 8])
    frames = len(samples) // 2
    sound = lambda i: abs(samples[2 * i]) >= 1e-3 or abs(samples[2 * i + 1]) >= 1e-3
    found, i = [], 0
    while i < frames:
        if samples[2 * i] != 0 or samples[2 * i + 1] != 0:
            i += 1
            continue
        start = i
        while i < frames and samples[2 * i] == 0 and samples[2 * i + 1] == 0: i += 1
        length = i - start
        if rate // 2000 <= length <= rate // 2 and i < frames:
            before = any(sound(k) for k in range(max(0, start - 16), start))
            after = any(sound(k) for k in range(i, min(frames, i + 16)))
            if before and after: found.append((start / rate, length * 1000 / rate))
    return found

def start_loads():
    for _ in range(args.busy):
        loads.append(subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True))
    if args.beside_build:
        script = "while true; do rm -rf .build-load; swift build -c release --scratch-path .build-load >/dev/null 2>&1; done"
        loads.append(subprocess.Popen(["bash", "-c", script], start_new_session=True))

def stop_loads():
    for p in loads:
        try: os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError: pass
    if args.beside_build:
        # SwiftPM starts its compilers in process groups of their own.
        subprocess.run(["pkill", "-f", r"\.build-load/"], capture_output=True)
        shutil.rmtree(".build-load", ignore_errors=True)

servers = []
if args.pipewire:
    env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={root}/run/bus"
    env["PULSE_SERVER"] = f"unix:{root}/run/pulse/native"
    servers.append(subprocess.Popen(["dbus-daemon", "--session", "--nofork", f"--address={env['DBUS_SESSION_BUS_ADDRESS']}"], env=env))
    time.sleep(0.5)
    for program in ["pipewire", "wireplumber", "pipewire-pulse"]:
        servers.append(subprocess.Popen([program], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(0.5)
else:
    subprocess.run(["pulseaudio", "-D", "--exit-idle-time=-1", "-n", "--load=module-null-sink",
                    "--load=module-native-protocol-unix", f"--log-target=file:{log}", "--log-level=debug", "--log-time=1"],
                   env=env, check=True)
recorder = None
try:
    deadline = time.monotonic() + 10
    while subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode != 0:
        if time.monotonic() > deadline: sys.exit("the private sound server did not start")
        time.sleep(0.1)
    if args.pipewire:
        deadline = time.monotonic() + 10
        while subprocess.run(["pactl", "load-module", "module-null-sink", "sink_name=null"], env=env, capture_output=True).returncode != 0 \
                or subprocess.run(["pactl", "set-default-sink", "null"], env=env, capture_output=True).returncode != 0:
            if time.monotonic() > deadline: sys.exit("pipewire-pulse made no null sink")
            time.sleep(0.2)
    sink = subprocess.run(["pactl", "get-default-sink"], env=env, capture_output=True, text=True).stdout.strip()
    recording = f"{root}/monitor.raw"
    recorder = subprocess.Popen(["parec", "-d", f"{sink}.monitor", "--rate=48000", "--channels=2", "--format=float32le",
                                 "--raw", f"--latency-msec={args.monitor_ms}", recording], env=env)
    command = [os.path.abspath(args.drumdub), "--assets", os.path.abspath("assets"), "--latency", args.latency]
    tmux("new-session", "-d", "-x", "80", "-y", "24", " ".join(command))
    deadline = time.monotonic() + 15
    while "1 snare" not in "\n".join(screen()):
        if time.monotonic() > deadline: sys.exit("drumdub did not draw its screen:\n" + "\n".join(screen()))
        time.sleep(0.05)
    time.sleep(3)   # the stream started and settled: underruns from here on are the load's
    if not any(l.startswith("music") and "playing" in l for l in screen()):
        tmux("send-keys", "p")
    print("at the start: " + output_line(), flush=True)
    start_loads()
    before = server_underruns()
    drums, moves = "12341134", ["w", "a", "s", "d", "Left", "Right", "Up", "Down"]
    start = time.monotonic()
    beat = 0
    while (elapsed := time.monotonic() - start) < args.seconds:
        keys = [drums[beat % len(drums)]]
        if beat % 16 == 8: keys.append(moves[(beat // 16) % len(moves)])
        if beat % 160 == 80: keys.append("r")
        if beat % 240 == 120: keys.append("+" if (beat // 240) % 2 == 0 else "-")
        for key in keys: tmux("send-keys", key)
        if beat % 480 == 0 and beat > 0:
            print(f"{elapsed:5.0f} s: {output_line()}", flush=True)
        beat += 1
        time.sleep(max(0, start + beat * 0.125 - time.monotonic()))
    after = server_underruns()
    if args.pipewire:
        top = f"{socket}-top"
        subprocess.run(["tmux", "-L", top, "new-session", "-d", "-x", "160", "-y", "40", "pw-top"], env=env)
        time.sleep(3)
        view = subprocess.run(["tmux", "-L", top, "capture-pane", "-p"], env=env, capture_output=True, text=True).stdout
        subprocess.run(["tmux", "-L", top, "kill-server"], env=env)
        print("pw-top:\n" + "\n".join(l.rstrip() for l in view.splitlines() if l.strip()))
    stop_loads()
    recorder.terminate()
    recorder.wait()
    dropouts = sink_dropouts(recording)
    line = output_line()
    if not line: sys.exit("drumdub's screen has no output line:\n" + "\n".join(screen()))
    print(f"at the end ({args.seconds:.0f} s, {beat} beats): {line}")
    stepped = f" {args.latency} " not in line + " "
    gaps = int(line.split(" output gaps")[0].rsplit(" ", 1)[-1]) if " output gaps" in line else 0
    print(f"mode {args.latency}: {'stepped back' if stepped else 'held'}; output gaps the engine saw: {gaps}; "
          f"underruns the server logged: {after - before}; dropouts at the sink: {len(dropouts)} "
          f"{[(round(t, 2), round(ms, 1)) for t, ms in dropouts[:20]]}"
          f"{'; load: ' + str(args.busy) + ' busy loops' if args.busy else ''}{'; beside a release build' if args.beside_build else ''}")
    tmux("send-keys", "q")
    time.sleep(1)
    failed = stepped or after - before > 0 or len(dropouts) > 0
finally:
    stop_loads()
    if recorder: recorder.kill()
    tmux("kill-server")
    if args.pipewire:
        for p in reversed(servers): p.terminate(); p.wait()
    else:
        subprocess.run(["pulseaudio", "--kill"], env=env, capture_output=True)
    if os.environ.get("KEEP_LOG"): print("server log: " + log)
    else: shutil.rmtree(root, ignore_errors=True)
sys.exit(1 if failed else 0)
