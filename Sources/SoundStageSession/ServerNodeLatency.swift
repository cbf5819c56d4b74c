import SoundStageCore

/// The latency PipeWire gave one of this process's playback streams, as the server says it:
/// the stream's `node.latency` property (`256/48000`: a quantum of 256 frames at 48 kHz),
/// which pipewire-pulse sets from what the stream asked, held to its `pulse.min.quantum` (256
/// frames at 48 kHz by default, more in a virtual machine). PulseAudio has no such property.
///
/// Where it is longer than the period a latency mode asked, the server's floor set the
/// latency, not the mode: ``floorNote(asked:)`` says so, with the server's figure.
public struct ServerNodeLatency: Sendable, Hashable, CustomStringConvertible {
    /// The quantum the server gave the stream, in frames at ``sampleRate``.
    public let frames: Int
    /// The rate the server counts ``frames`` at, in Hz.
    public let sampleRate: Int

    /// Makes one from its parts; nil unless both are in range (frames 1...65,536, PipeWire's
    /// largest quantum limit; a rate of 1...768,000 Hz).
    public init?(frames: Int, sampleRate: Int) {
        guard (1...65_536).contains(frames), (1...768_000).contains(sampleRate) else { return nil }
        self.frames = frames
        self.sampleRate = sampleRate
    }

    /// Reads the property's text as the server writes it, `FRAMES/RATE` (`"256/48000"`, digits
    /// only); nil for anything else, or numbers out of range (a peer's value is checked like
    /// any other).
    public init?(property: String) {
        let parts = property.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...7).contains($0.count) && $0.allSatisfy { ("0"..."9").contains($0) } }),
              let frames = Int(parts[0]), let rate = Int(parts[1]) else { return nil }
        self.init(frames: frames, sampleRate: rate)
    }

    /// Its length in seconds.
    public var seconds: Double { Double(frames) / Double(sampleRate) }

    /// Its length in frames at `rate` (the device's), rounded.
    public func frames(at rate: Int) -> Int { Int((Double(frames) * Double(rate) / Double(sampleRate)).rounded()) }

    /// Whether the server gave more than half as long again as the period `request` asked:
    /// its floor, not the request, decided (see ``ServerLatencyRequest/metServerFloor``).
    public func isFloor(asked request: ServerLatencyRequest) -> Bool {
        frames(at: request.sampleRate) * 2 > request.askedPeriodFrames * 3
    }

    /// E.g. `the server's floor: 144 frames asked, PipeWire gave the stream 256/48000 (5.3 ms),
    /// its pulse.min.quantum`, where the server's floor set the latency; nil where the request did.
    public func floorNote(asked request: ServerLatencyRequest) -> String? {
        guard isFloor(asked: request) else { return nil }
        return "the server's floor: \(request.askedPeriodFrames) frames asked, PipeWire gave the stream \(self), its pulse.min.quantum"
    }

    /// E.g. `256/48000 (5.3 ms)`.
    public var description: String {
        "\(frames)/\(sampleRate) (\((seconds * 10_000).rounded() / 10) ms)"
    }
}
