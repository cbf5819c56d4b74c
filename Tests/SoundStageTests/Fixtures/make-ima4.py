#!/usr/bin/env python3
"""Makes the Apple IMA4 fixtures: AIFC files written by libsndfile (pip install soundfile)
and libsndfile's own decoding of them as raw signed 16-bit little-endian samples.
sox and oggenc cannot write IMA4 in AIFC or CAF; these small files are committed instead."""
import numpy as np, soundfile as sf
rate = 22050
t = np.arange(int(rate * 0.25)) / rate
mono = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.25 * np.sin(2 * np.pi * 1250 * t)
stereo = np.stack([0.6 * np.sin(2 * np.pi * 330 * t), 0.4 * np.sin(2 * np.pi * 2000 * t)], axis=1)
for name, signal in (("ima4-mono", mono), ("ima4-stereo", stereo)):
    sf.write(name + ".aifc", signal, rate, format="AIFF", subtype="IMA_ADPCM")
    decoded, _ = sf.read(name + ".aifc", dtype="int16", always_2d=True)
    decoded.astype("<i2").tofile(name + ".s16")
