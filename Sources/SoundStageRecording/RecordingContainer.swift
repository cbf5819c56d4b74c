import SoundStageCore
import SoundStageSession

/// The container a ``Recorder`` writes.
public enum RecordingContainer: String, Sendable, CaseIterable, Hashable {
    /// RIFF WAVE: 16- or 24-bit integers or 32-bit floats.
    case wav
    /// Core Audio Format: 16- or 24-bit integers or 32-bit floats.
    case caf
    /// Ogg Vorbis (libvorbisenc), at a quality.
    case oggVorbis = "ogg"

    /// The container a file name's extension names (`.wav`, `.caf`, `.ogg`/`.oga`), nil for others.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "wav", "wave": self = .wav
        case "caf": self = .caf
        case "ogg", "oga": self = .oggVorbis
        default: return nil
        }
    }
}
