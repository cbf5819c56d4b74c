#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation
import SoundStageCore
import SoundStageSession

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
