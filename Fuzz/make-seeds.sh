#!/usr/bin/env bash
# Makes the fuzzers' seed corpus: small files of every format each parser reads.
set -euo pipefail
cd "$(dirname "$0")"
for t in wav aiff caf ogg flac opus mp3; do mkdir -p corpus/$t; done
synth=(synth 0.05 sine 440 sine 660)
n=0
for opts in "-b 8" "-b 16" "-b 24" "-b 32" "-e floating-point -b 32" "-e floating-point -b 64" "-e u-law" "-e a-law" "-e ima-adpcm" "-e ms-adpcm"; do
    n=$((n + 1))
    sox -n -r 8000 -c 2 $opts "corpus/wav/$n.wav" "${synth[@]}"
    sox -n -r 8000 -c 1 $opts -t wavpcm "corpus/wav/$n-mono.wav" "${synth[@]}" 2>/dev/null || true
done
sox -n -r 8000 -c 6 -b 16 corpus/wav/surround.wav "${synth[@]}"
for opts in "-b 8" "-b 16" "-b 24" "-b 32"; do n=$((n + 1)); sox -n -r 8000 -c 2 $opts "corpus/aiff/$n.aiff" "${synth[@]}"; done
for opts in "-e floating-point -b 32" "-e floating-point -b 64" "-e u-law" "-e a-law"; do n=$((n + 1)); sox -n -r 8000 -c 2 $opts "corpus/aiff/$n.aifc" "${synth[@]}"; done
cp ../Tests/SoundStageTests/Fixtures/ima4-mono.aifc corpus/aiff/
for opts in "-b 8" "-b 16" "-b 24" "-b 32" "-e floating-point -b 32" "-e u-law" "-e a-law"; do n=$((n + 1)); sox -n -r 8000 -c 2 $opts "corpus/caf/$n.caf" "${synth[@]}"; done
sox -n -r 8000 -c 1 -b 16 corpus/ogg/src.wav synth 0.3 sine 440
oggenc -Q -o corpus/ogg/mono.ogg corpus/ogg/src.wav && rm corpus/ogg/src.wav
sox -n -r 8000 -c 2 -b 16 corpus/ogg/src.wav synth 0.3 sine 440 sine 880
oggenc -Q -q 0 -o corpus/ogg/stereo.ogg corpus/ogg/src.wav && rm corpus/ogg/src.wav
for opts in "-b 8 -c 1" "-b 16 -c 2" "-b 24 -c 1" "-b 16 -c 6"; do
    n=$((n + 1))
    sox -n -r 8000 $opts corpus/flac/src.wav synth 0.2 sine 440 sine 660
    flac -s -f -o "corpus/flac/$n.flac" corpus/flac/src.wav && rm corpus/flac/src.wav
done
sox -n -r 48000 -c 2 -b 16 corpus/opus/src.wav synth 0.3 sine 440 sine 880
opusenc --quiet corpus/opus/src.wav corpus/opus/stereo.opus
opusenc --quiet --bitrate 16 --downmix-mono corpus/opus/src.wav corpus/opus/mono.opus && rm corpus/opus/src.wav
sox -n -r 44100 -c 2 -b 16 corpus/mp3/src.wav synth 0.3 sine 440 sine 880
lame --quiet -b 64 corpus/mp3/src.wav corpus/mp3/stereo.mp3
lame --quiet -m m -V 6 corpus/mp3/src.wav corpus/mp3/mono-vbr.mp3 && rm corpus/mp3/src.wav
