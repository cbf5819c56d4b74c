#!/usr/bin/env bash
# Soaks SoundStage under a game's load (Soak/, the soundstage-soak tool): streamed music with
# a pilot tone, 200 voices starting and ending, a moving listener, fades, ducking by dialog,
# and the output moved to another device every 10 minutes (five times in a shorter run). It
# checks that resident memory is flat after the warm-up (growth under 1 MB), that the music
# has no gap in the output and no stream underran, and that no OpenAL source or buffer is
# left behind. Exits non-zero if not.
#
#   scripts/soak.sh [minutes]   offline for MINUTES (default 60), rendered as fast as it goes,
#                               then live on a headless PulseAudio server for MINUTES, at most
#                               10, with one move between two null sinks halfway
#   SOUNDSTAGE_SOAK=offline|live scripts/soak.sh [minutes]   only one of them
#
# Logs: .build-soak/offline.log and .build-soak/live.log. scripts/test.sh --full runs five
# minutes of it offline.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_swift
ensure_packages "${SOUNDSTAGE_BUILD_PACKAGES[@]}" vorbis-tools pulseaudio pulseaudio-utils

minutes=${1:-60}
which=${SOUNDSTAGE_SOAK:-both}
live_minutes=$(awk -v m="$minutes" 'BEGIN { print (m < 10) ? m : 10 }')
out=.build-soak
mkdir -p "$out"

swift build --product soundstage-soak
soak="$(swift build --show-bin-path)/soundstage-soak"
"$soak" music "$out/music.wav"
oggenc -Q -q 4 -o "$out/music.ogg" "$out/music.wav"

export ALSOFT_TRAP_AL_ERROR=1 ALSOFT_TRAP_ALC_ERROR=1 SWIFT_BACKTRACE=enable=no
# The gap finder first: it must find made gaps of each kind, and none in a clean output.
"$soak" self-test
status=0
if [[ $which != live ]]; then
    # A move every 10 minutes, or five in a shorter run.
    move_every=$(awk -v m="$minutes" 'BEGIN { e = m * 10; print (e < 600) ? e : 600 }')
    echo "==> offline: $minutes minutes of load, the output moved every $move_every s"
    # A short run's warm-up takes in its first two moves, ending halfway to the third: each
    # move's second context leaves the allocator about 1 MB larger the first times (measured
    # on the 5-minute run, a move every 50 s: +0.98 to +1.05 MB after a 1-minute warm-up,
    # +0 bytes after 2 minutes).
    warm_up=$(awk -v m="$minutes" -v e="$move_every" 'BEGIN { w = m / 10; if (m < 10 && w < 2.5 * e / 60) w = 2.5 * e / 60; if (w < 1) w = 1; print w }')
    "$soak" offline --minutes "$minutes" --move-every "$move_every" --warm-up "$warm_up" --music "$out/music.ogg" 2>&1 | tee "$out/offline.log" || status=1
fi
if [[ $which != offline ]]; then
    start_pulse
    modules=()
    cleanup() {
        for m in "${modules[@]}"; do pactl unload-module "$m" >/dev/null 2>&1 || true; done
        stop_pulse
    }
    trap cleanup EXIT
    for sink in soak_a soak_b; do
        modules+=("$(pactl load-module module-null-sink sink_name=$sink sink_properties=device.description=$sink)")
    done
    echo "==> live: $live_minutes minutes of load on PulseAudio, moving from soak_a to soak_b halfway"
    "$soak" live --minutes "$live_minutes" --move-every "$(awk -v m="$live_minutes" 'BEGIN { print m * 30 }')" --moves 1 --music "$out/music.ogg" --sink soak_a --sink soak_b 2>&1 \
        | tee "$out/live.log" || status=1
fi
exit $status
