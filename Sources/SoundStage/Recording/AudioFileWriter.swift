#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A sound file being written block by block, always readable: after every block the file on
/// disk is a valid file holding every block written so far (WAV and CAF rewrite their sizes
/// in place; Ogg pages stand alone), so a crash or a full disk leaves a playable file up to
/// the last block, never a corrupt one.
protocol AudioFileWriter: AnyObject {
    /// Appends interleaved samples in -1...1.
    func append(_ samples: [Float]) throws
    /// Completes the file (for Ogg: the last page) and closes it.
    func finish() throws
    /// Frames written so far.
    var framesWritten: Int { get }
}

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

/// A file opened for writing with POSIX calls, so a header can be rewritten in place
/// (`pwrite`) and every failure has its errno. Closed exactly once.
final class OutputFile {
    let path: String
    private let fd: OwnedFD
    /// Bytes written at the end so far.
    private(set) var length: Int = 0

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputFile.error(path, "cannot create the file", errno) }
        self.path = path
        self.fd = OwnedFD(fd)
    }

    /// Appends `bytes`; on a short write (a full disk) the file is cut back to where it was,
    /// so what is there stays whole.
    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd.fd, raw.baseAddress! + done, raw.count - done, off_t(length + done))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else {
                    let code = errno
                    _ = ftruncate(fd.fd, off_t(length))
                    throw OutputFile.error(path, "cannot write the file", code)
                }
                done += n
            }
        }
        length += bytes.count
    }

    /// Writes `bytes` over what is at `offset` (a header field).
    func overwrite(_ bytes: [UInt8], at offset: Int) throws {
        let n = bytes.withUnsafeBytes { pwrite(fd.fd, $0.baseAddress!, $0.count, off_t(offset)) }
        guard n == bytes.count else { throw OutputFile.error(path, "cannot update the file's header", errno) }
    }

    /// Flushes the file to disk.
    func sync() { _ = fsync(fd.fd) }

    static func error(_ path: String, _ what: String, _ code: Int32) -> SoundStageError {
        SoundStageError(.fileAccess, operation: "Recorder.write", object: path, reason: "\(what): \(errnoDescription(code))")
    }
}

/// Little- and big-endian byte encodings of header fields.
enum Bytes {
    static func le32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, Array.init) }
    static func le16(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, Array.init) }
    static func be32(_ v: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, Array.init) }
    static func be64(_ v: Int64) -> [UInt8] { withUnsafeBytes(of: UInt64(bitPattern: v).bigEndian, Array.init) }
    static func beDouble(_ v: Double) -> [UInt8] { withUnsafeBytes(of: v.bitPattern.bigEndian, Array.init) }
    static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// Samples in -1...1 as little- or big-endian PCM of `bits` (16, 24: integers; 32: float).
    static func pcm(_ samples: [Float], bits: Int, bigEndian: Bool) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(samples.count * bits / 8)
        for s in samples {
            let v = max(-1, min(1, s))
            switch bits {
            case 16:
                let i = UInt16(bitPattern: Int16((v * 32_767).rounded()))
                out += bigEndian ? [UInt8(i >> 8), UInt8(i & 0xFF)] : [UInt8(i & 0xFF), UInt8(i >> 8)]
            case 24:
                let i = UInt32(bitPattern: Int32((v * 8_388_607).rounded()))
                let b = [UInt8(i & 0xFF), UInt8((i >> 8) & 0xFF), UInt8((i >> 16) & 0xFF)]
                out += bigEndian ? b.reversed() : b
            default:
                let i = s.bitPattern
                let b = [UInt8(i & 0xFF), UInt8((i >> 8) & 0xFF), UInt8((i >> 16) & 0xFF), UInt8(i >> 24)]
                out += bigEndian ? b.reversed() : b
            }
        }
        return out
    }
}
