#!/usr/bin/env bash
# Makes drumdub's background music, loop.ogg: four bars of pad chords (Am F C G) at 120 bpm,
# 8 s exactly (384,000 frames at 48 kHz, stereo), made to loop without a seam. Every partial is
# a whole number of cycles long in its 2 s bar (frequencies on a 0.5 Hz grid), and the 2 Hz
# tremolo a whole number of cycles too, so each bar starts and ends at phase zero: the bars
# join each other, and the last joins the first, with no jump. Encoded with oggenc at quality
# 3. Run from anywhere: assets/music/make-music.sh. Needs sox and vorbis-tools.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fmt=(-r 48000 -c 1 -b 16)
sox() { command sox -R -D "$@"; }

# One bar: the chord's partials (Hz, rounded to 0.5 Hz) mixed, a soft 2 Hz pulse on top.
bar() {
    local name=$1; shift
    local parts=()
    for f in "$@"; do
        sox -n "${fmt[@]}" "$tmp/$name-$f.wav" synth 2 sine "$f"
        parts+=("$tmp/$name-$f.wav")
    done
    sox -m "${parts[@]}" "${fmt[@]}" "$tmp/$name.wav" tremolo 2 30
}
bar am 110 131 165 220 330
bar f 87.5 110 131 174.5 262
bar c 131 165 196 261.5 392
bar g 98 123.5 147 196 294
sox "$tmp/am.wav" "$tmp/f.wav" "$tmp/c.wav" "$tmp/g.wav" -c 2 "$tmp/loop.wav" norm -9
oggenc -Q -q 3 -o loop.ogg "$tmp/loop.wav"
