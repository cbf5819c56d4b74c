# Shared by the set-up scripts: make sure Swift and the system packages are there.
# Sourced, not run.

# The Debian packages SoundStage builds against and tests with (libsdl2-dev: drumdub's window's
# headers; xvfb, xdotool and imagemagick: the window's tests).
SOUNDSTAGE_BUILD_PACKAGES=(pkg-config libopenal-dev libalut-dev libvorbis-dev libflac-dev libopusfile-dev libmpg123-dev libpulse-dev libsystemd-dev libncurses-dev libsdl2-dev)
SOUNDSTAGE_TEST_PACKAGES=(sox vorbis-tools flac opus-tools lame mpg123 pulseaudio pulseaudio-utils pipewire pipewire-bin pipewire-pulse wireplumber libspa-0.2-modules dbus-daemon tmux mpv mpv-mpris playerctl xvfb xdotool x11-utils imagemagick)

# Installs the named Debian packages that are missing (apt-get, as root or through sudo).
ensure_packages() {
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "==> installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# Puts Swift on PATH when it is installed at /opt/swift but not on PATH yet.
ensure_swift() {
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || { echo "swift not found: install Swift 6 (https://swift.org/install)" >&2; exit 1; }
}

# Starts a headless PulseAudio server with a null sink for this run, unless one answers.
# Sets SOUNDSTAGE_STARTED_PULSE=1 when it started one (stop it with stop_pulse).
start_pulse() {
    if [ -z "${XDG_RUNTIME_DIR:-}" ] || [ ! -w "${XDG_RUNTIME_DIR}" ]; then
        XDG_RUNTIME_DIR=$(mktemp -d /tmp/soundstage-xdg.XXXXXX)
        export XDG_RUNTIME_DIR
        SOUNDSTAGE_MADE_XDG="$XDG_RUNTIME_DIR"
    fi
    if pactl info >/dev/null 2>&1; then return 0; fi
    pulseaudio -D --exit-idle-time=-1 -n --load=module-null-sink \
        --load=module-native-protocol-unix >/dev/null 2>&1 || true
    for _ in $(seq 1 50); do
        pactl info >/dev/null 2>&1 && { SOUNDSTAGE_STARTED_PULSE=1; return 0; }
        sleep 0.1
    done
    echo "==> PulseAudio did not start; the end-to-end test will say so" >&2
}

# Starts a headless PulseAudio server with a null sink of this run's own, in a runtime folder
# of its own, so the tests never play through a server that was running already (a
# developer's speakers). SOUNDSTAGE_USE_RUNNING_SERVER=1 uses the running one instead (as
# start_pulse does). Sets SOUNDSTAGE_STARTED_PULSE=1 (stop it with stop_pulse).
start_private_pulse() {
    if [ "${SOUNDSTAGE_USE_RUNNING_SERVER:-0}" = 1 ]; then start_pulse; return; fi
    XDG_RUNTIME_DIR=$(mktemp -d /tmp/soundstage-xdg.XXXXXX)
    export XDG_RUNTIME_DIR
    SOUNDSTAGE_MADE_XDG="$XDG_RUNTIME_DIR"
    unset PULSE_SERVER
    start_pulse
}

# Stops the server start_pulse started, and removes the runtime folder it made.
stop_pulse() {
    if [ "${SOUNDSTAGE_STARTED_PULSE:-0}" = 1 ]; then pulseaudio --kill >/dev/null 2>&1 || true; fi
    if [ -n "${SOUNDSTAGE_MADE_XDG:-}" ]; then rm -rf "$SOUNDSTAGE_MADE_XDG"; fi
}

# Starts a headless PipeWire for this run (a session bus, pipewire, WirePlumber and
# pipewire-pulse, as a desktop runs them) in a runtime folder of its own, with a null sink
# made through pipewire-pulse (none with SOUNDSTAGE_PIPEWIRE_SINK=0), and points this shell's clients at it (XDG_RUNTIME_DIR,
# PULSE_SERVER, DBUS_SESSION_BUS_ADDRESS): the live suites then run on PipeWire as they do on
# PulseAudio. Stop it with stop_private_pipewire. Given a folder (one it made before, kept by
# `stop_private_pipewire --keep`), it starts there again, as a restarted server.
start_private_pipewire() {
    SOUNDSTAGE_PIPEWIRE_DIR=${1:-$(mktemp -d /tmp/soundstage-pipewire.XXXXXX)}
    local dir=$SOUNDSTAGE_PIPEWIRE_DIR
    rm -f "$dir/bus" "$dir/pipewire-0"   # a killed server's sockets are no sign of a new one
    export XDG_RUNTIME_DIR=$dir DBUS_SESSION_BUS_ADDRESS=unix:path=$dir/bus PULSE_SERVER=unix:$dir/pulse/native
    SOUNDSTAGE_PIPEWIRE_PIDS=()
    dbus-daemon --session --nofork --address="$DBUS_SESSION_BUS_ADDRESS" >/dev/null 2>&1 &
    SOUNDSTAGE_PIPEWIRE_PIDS+=($!)
    wait_for_file "$dir/bus" || { echo "==> the private D-Bus did not start" >&2; return 1; }
    # SOUNDSTAGE_PIPEWIRE_MIN_QUANTUM=N: the graph and pipewire-pulse give no quantum under N
    # frames at 48 kHz (as PrivatePulse(.pipewire, minimumQuantum:) does in the tests).
    local config=${XDG_CONFIG_HOME:-$HOME/.config}
    if [[ -n ${SOUNDSTAGE_PIPEWIRE_MIN_QUANTUM:-} ]]; then
        local quantum=$SOUNDSTAGE_PIPEWIRE_MIN_QUANTUM
        config=$dir/config
        mkdir -p "$config/pipewire/pipewire.conf.d" "$config/pipewire/pipewire-pulse.conf.d"
        printf 'context.properties = {\n    default.clock.min-quantum = %s\n}\n' "$quantum" > "$config/pipewire/pipewire.conf.d/quantum.conf"
        printf 'pulse.properties = {\n    pulse.min.req = %s/48000\n    pulse.min.quantum = %s/48000\n    pulse.min.frag = %s/48000\n}\n' \
            "$quantum" "$quantum" "$quantum" > "$config/pipewire/pipewire-pulse.conf.d/quantum.conf"
    fi
    XDG_CONFIG_HOME=$config XDG_STATE_HOME=$dir/state pipewire >/dev/null 2>&1 &
    SOUNDSTAGE_PIPEWIRE_PIDS+=($!)
    wait_for_file "$dir/pipewire-0" || { echo "==> PipeWire did not start" >&2; return 1; }
    XDG_CONFIG_HOME=$config XDG_STATE_HOME=$dir/state wireplumber >/dev/null 2>&1 &
    SOUNDSTAGE_PIPEWIRE_PIDS+=($!)
    XDG_CONFIG_HOME=$config XDG_STATE_HOME=$dir/state pipewire-pulse >/dev/null 2>&1 &
    SOUNDSTAGE_PIPEWIRE_PIDS+=($!)
    for _ in $(seq 1 100); do
        pactl info >/dev/null 2>&1 && break
        sleep 0.05
    done
    pactl info >/dev/null 2>&1 || { echo "==> pipewire-pulse did not answer" >&2; return 1; }
    [[ ${SOUNDSTAGE_PIPEWIRE_SINK:-1} == 0 ]] && return 0
    # Tried again for up to 5 s: once in CI, pipewire-pulse answered `pactl info` and then
    # refused the module ("Failure: Not supported").
    local _
    for _ in $(seq 1 50); do
        pactl load-module module-null-sink sink_name=soundstage_null >/dev/null 2>&1 && break
        sleep 0.1
    done
    for _ in $(seq 1 50); do
        pactl set-default-sink soundstage_null 2>/dev/null && return 0
        sleep 0.1
    done
    echo "==> pipewire-pulse made no null sink" >&2
    return 1
}

# Waits up to 5 s for a file (a socket) to appear.
wait_for_file() {
    for _ in $(seq 1 100); do
        [ -e "$1" ] && return 0
        sleep 0.05
    done
    return 1
}

# Stops what start_private_pipewire started (the last started first) and removes its folder,
# unless given --keep.
stop_private_pipewire() {
    local i
    for ((i = ${#SOUNDSTAGE_PIPEWIRE_PIDS[@]} - 1; i >= 0; i--)); do
        kill "${SOUNDSTAGE_PIPEWIRE_PIDS[i]}" 2>/dev/null || true
        wait "${SOUNDSTAGE_PIPEWIRE_PIDS[i]}" 2>/dev/null || true
    done
    SOUNDSTAGE_PIPEWIRE_PIDS=()
    if [ "${1:-}" != --keep ] && [ -n "${SOUNDSTAGE_PIPEWIRE_DIR:-}" ]; then rm -rf "$SOUNDSTAGE_PIPEWIRE_DIR"; fi
}

# OpenAL Soft 1.23.1 (Ubuntu 24.04 LTS's), for running the tests against it beside Debian's
# 1.19.1: the library in PyPI's `cyal` 0.4.5 wheel (soname libopenal.so.1), downloaded once
# into .build/openal-1.23.1 and loaded through LD_LIBRARY_PATH; nothing is installed
# system-wide. Prints the folder to put first on LD_LIBRARY_PATH.
openal_1_23_dir() {
    local dir=.build/openal-1.23.1
    if [ ! -e "$dir/libopenal.so.1" ]; then
        command -v python3 >/dev/null 2>&1 || ensure_packages python3
        python3 -m pip --version >/dev/null 2>&1 || ensure_packages python3-pip
        local wheel
        wheel=$(mktemp -d)
        echo "==> fetching OpenAL Soft 1.23.1 (PyPI cyal 0.4.5)" >&2
        python3 -m pip download cyal==0.4.5 --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
            --python-version 3.11 -d "$wheel" -q >&2
        mkdir -p "$dir"
        python3 - "$wheel"/cyal-0.4.5-*.whl "$dir" <<'PY'
import sys, zipfile
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    with open(out + "/libopenal.so.1", "wb") as f:
        f.write(z.read("cyal/libopenal.so.1.23.1"))
PY
        rm -rf "$wheel"
    fi
    (cd "$dir" && pwd)
}
