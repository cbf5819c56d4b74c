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

    /// What may be at the path: a recording's file is a regular file, reached through a link
    /// only when the link was there when its recorder was made; a render may write through a
    /// FIFO or a device.
    struct Policy {
        /// Whether a symbolic link at the path is followed.
        var followsLink = true
        /// Whether only a regular file is written (anything else an error, and a FIFO not
        /// waited on).
        var regularOnly = false

        /// A render's: anything the path leads to.
        static let any = Policy()
    }

    /// Creates (or truncates) the file at `path`, as `policy` allows.
    init(path: String, policy: Policy = .any) throws {
        var flags = O_WRONLY | O_CREAT | O_CLOEXEC
        // A regular file is truncated once known to be one; a FIFO with no reader is then an
        // error (ENXIO), not a wait.
        flags |= policy.regularOnly ? O_NONBLOCK : O_TRUNC
        if !policy.followsLink { flags |= O_NOFOLLOW }
        let fd = Glibc.open(path, flags, 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP && !policy.followsLink {
                throw OutputFile.error(path, "is a symbolic link that was not there when the recorder was made, which is not followed", code)
            }
            throw OutputFile.error(path, "cannot create the file", code)
        }
        let owned = OwnedFD(fd)
        if policy.regularOnly {
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw OutputFile.error(path, "cannot look at the file", errno) }
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw SoundStageError(.fileAccess, operation: "Recorder.write", object: path,
                                      reason: "is \(FileKind(mode: info.st_mode)), not a regular file: a recording is written only to one")
            }
            guard ftruncate(fd, 0) == 0 else { throw OutputFile.error(path, "cannot empty the file", errno) }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        }
        self.path = path
        self.fd = owned
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
