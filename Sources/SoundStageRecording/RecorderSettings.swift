import SoundStageCore
import SoundStageSession

/// What a ``Recorder`` records and how it writes it (AVAudioRecorder's settings dictionary,
/// typed).
public struct RecorderSettings: Sendable, Hashable {
    /// The file's container; nil takes it from the URL's extension (`.wav`, `.caf`, `.ogg`).
    public var container: RecordingContainer?
    /// Frames per second, 8000...192000. Default 48000.
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo). Default 1.
    public var channels: Int
    /// WAV and CAF: 16 or 24 (integers) or 32 (floats). Default 16.
    public var bitDepth: Int
    /// Ogg Vorbis: -0.1 (smallest) ... 1 (best). Default 0.5 (about 160 kbit/s stereo).
    public var quality: Float
    /// The capture device by name (one of ``AudioDevice/captureDevices``); nil for the default.
    public var deviceName: String?

    /// Settings; every argument has a default.
    public init(container: RecordingContainer? = nil, sampleRate: Int = 48_000, channels: Int = 1, bitDepth: Int = 16,
                quality: Float = 0.5, deviceName: String? = nil) {
        self.container = container
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitDepth = bitDepth
        self.quality = quality
        self.deviceName = deviceName
    }

    /// The bit depths WAV and CAF recordings take.
    public static let bitDepths: Set<Int> = [16, 24, 32]

    /// What is wrong with these settings for a file at `path`; nil when they are usable.
    func problem(path: String, container: RecordingContainer?) -> String? {
        guard container != nil else { return "say the container in the settings, or name the file .wav, .caf or .ogg" }
        guard CaptureDevice.sampleRates.contains(sampleRate) else { return "the sample rate must be in \(CaptureDevice.sampleRates) Hz, got \(sampleRate)" }
        guard (1...2).contains(channels) else { return "a recording has 1 or 2 channels, got \(channels)" }
        if container == .oggVorbis {
            guard quality.isFinite, OggVorbisWriter.qualities.contains(quality) else { return "the Ogg Vorbis quality must be in \(OggVorbisWriter.qualities), got \(quality)" }
        } else {
            guard Self.bitDepths.contains(bitDepth) else { return "the bit depth must be 16, 24 or 32 (float), got \(bitDepth)" }
        }
        return nil
    }
}
