import COpenAL

extension AudioDevice {
    /// The most one ``render(frames:)`` renders, in seconds of its format: an hour (1.4 GB of
    /// stereo floats at 48 kHz); a longer render is several calls.
    public static let longestRenderSeconds = 3_600.0

    /// Renders `frames` frames of the mix of every context on this loopback device.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidState`` on a real output device,
    ///   ``SoundStageError/Code-swift.struct/invalidArgument`` for a negative count or one
    ///   over ``longestRenderSeconds``, ``SoundStageError/Code-swift.struct/deviceClosed`` once
    ///   it is closed.
    public func render(frames: Int) throws -> RenderedAudio {
        guard let format = loopbackFormat else {
            throw failure(.invalidState, "render(frames:)", "only a loopback device renders on request; open one with AudioDevice.openLoopback(format:)")
        }
        let longest = Int(Self.longestRenderSeconds) * format.sampleRate
        guard frames >= 0 else {
            throw failure(.invalidArgument, "render(frames:)", "frame count must not be negative, got \(frames)")
        }
        guard frames <= longest else {
            throw failure(.invalidArgument, "render(frames:)",
                          "frames must be in 0...\(longest) (\(Int(Self.longestRenderSeconds)) s at \(format.sampleRate) Hz; render longer in several calls), got \(frames)")
        }
        let count = frames * format.channels.channelCount
        // Nothing to mix; and an empty array made with unsafeUninitializedCapacity writes its
        // count into the shared empty storage, which ThreadSanitizer reports as a race.
        guard count > 0 else { return RenderedAudio(format: format, samples: []) }
        switch format.sampleType {
        case .float32:
            let samples = try [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
                try renderRaw(into: UnsafeMutableRawBufferPointer(buffer), frames: frames)
                initialized = count
            }
            return RenderedAudio(format: format, samples: samples)
        case .int16:
            var ints = [Int16](repeating: 0, count: count)
            try ints.withUnsafeMutableBytes { try renderRaw(into: $0, frames: frames) }
            return RenderedAudio(format: format, samples: ints.map { Float($0) / 32768 })
        }
    }

    /// Renders `frames` frames straight into `buffer`, in the device's own format (Int16 or
    /// Float32, interleaved). The buffer must hold `frames * bytesPerFrame` bytes.
    public func render(into buffer: UnsafeMutableRawBufferPointer, frames: Int) throws {
        guard let format = loopbackFormat else {
            throw failure(.invalidState, "render(into:frames:)", "only a loopback device renders on request")
        }
        // Compared by division: frames * bytesPerFrame overflows for a count near Int.max.
        guard frames >= 0, frames <= buffer.count / format.bytesPerFrame else {
            throw failure(.invalidArgument, "render(into:frames:)", "a buffer of \(buffer.count) bytes cannot hold \(frames) frames of \(format.bytesPerFrame) bytes")
        }
        try renderRaw(into: buffer, frames: frames)
    }

    /// Mixes `frames` frames into `buffer`: the frames mixed ahead by the last render first, then
    /// the rest in blocks OpenAL Soft 1.19.1's reverb can cross-fade in
    /// (``LoopbackRenderBlocks``).
    private func renderRaw(into buffer: UnsafeMutableRawBufferPointer, frames: Int) throws {
        guard frames > 0, let base = buffer.baseAddress, let format = loopbackFormat else { return }
        let raw = handle.raw, frameBytes = format.bytesPerFrame
        func mix(_ into: UnsafeMutableRawPointer, _ count: Int) throws {
            try OpenAL.callALC(raw, Self.operationName("render(frames:)"), on: description) {
                alcRenderSamplesSOFT(raw, into, ALCsizei(count))
            }
        }
        try OpenAL.withDevice { _ in
            guard !isClosed else { throw closedError("render(frames:)") }
            try renderBlocks.withLock { blocks in
                let handed = blocks.hand(into: base, frames: frames, frameBytes: frameBytes)
                let rest = frames - handed
                guard rest > 0 else { return }
                let target = base + handed * frameBytes, mixed = blocks.framesToMix(rest)
                if mixed == rest {
                    try mix(target, rest)
                } else {
                    var ahead = [UInt8](repeating: 0, count: mixed * frameBytes)
                    try ahead.withUnsafeMutableBytes { try mix($0.baseAddress!, mixed) }
                    blocks.keep(ahead, handing: rest, into: target, frameBytes: frameBytes)
                }
                blocks.mixed(mixed)
            }
        }
    }

    /// A reverb's settings may change now (its slot loaded, the device reset), and
    /// OpenAL Soft's reverb then cross-fades: the next renders of this loopback device keep
    /// to blocks it can fade in. Only for OpenAL Soft before 1.23 (`release`; nil is taken
    /// as 1.19.1): 1.23.1 rendered 1 to 127 frames at a time through the fade whole.
    package func reverbMayFade(release: OpenALSoftVersion?) {
        guard loopbackFormat != nil, (release ?? .oldest) < OpenALSoftVersion(major: 1, minor: 23) else { return }
        renderBlocks.withLock { $0.fadeStarts() }
    }
}
