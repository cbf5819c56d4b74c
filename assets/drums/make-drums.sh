#!/usr/bin/env bash
# Makes the four drum sounds of the drumdub demo with sox: mono, 16-bit, 48 kHz WAV.
# Run from anywhere: assets/drums/make-drums.sh. Needs sox (apt-get install sox).
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fmt=(-r 48000 -c 1 -b 16)
# -R: repeatable (fixed noise seed); -D: no dither. Together the output is the same every run.
sox() { command sox -R -D "$@"; }

# Snare: a short tonal body (200 Hz falling to 160 Hz) under a band-limited noise burst.
sox -n "${fmt[@]}" "$tmp/body.wav" synth 0.25 sine 200-160 fade q 0.001 0.25 0.22 gain -6
sox -n "${fmt[@]}" "$tmp/rattle.wav" synth 0.25 noise vol 0.5 highpass 1200 lowpass 8000 fade q 0.001 0.25 0.24 gain -4
sox -m "$tmp/body.wav" "$tmp/rattle.wav" "${fmt[@]}" snare.wav norm -1

# Bass drum: a sine sweeping 110 Hz down to 45 Hz with a fast exponential decay.
sox -n "${fmt[@]}" bass.wav synth 0.5 sine 110-45 fade q 0.002 0.5 0.48 norm -1

# Tambourine: bright noise plus two metallic partials, ringing a little longer.
sox -n "${fmt[@]}" "$tmp/hiss.wav" synth 0.35 noise vol 0.5 highpass 6000 fade q 0.001 0.35 0.34 gain -3
sox -n "${fmt[@]}" "$tmp/jingle.wav" synth 0.35 sine 5400 sine 7300 fade q 0.001 0.35 0.34 gain -12
sox -m "$tmp/hiss.wav" "$tmp/jingle.wav" "${fmt[@]}" tambourine.wav norm -3

# Maraca: a very short band-passed noise shake.
sox -n "${fmt[@]}" maraca.wav synth 0.09 noise vol 0.5 bandpass 4500 1500 fade q 0.004 0.09 0.07 norm -4
