import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SoundFile {
    /// The bytes of a file about to be read whole, mapped into memory read-only (`mmap`) with
    /// every page at once (`MAP_POPULATE`: a 100 MB WAV then loads without 24,000 separate page
    /// faults, measured about a fifth of its load time), or read when it cannot be mapped.
    ///
    /// Only for a file read now and let go: a mapping dies (SIGBUS) when its file is truncated
    /// under it, so a stream holds its bytes instead (``contents(of:operation:)``).
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the reason.
    static func mappedContents(of url: URL, operation: String) throws -> Data {
        func failure(_ reason: String) -> SoundStageError {
            SoundStageError(.fileAccess, operation: operation, object: url.path, reason: "cannot read the file (\(reason))")
        }
        // What cannot be mapped (a pipe, a device, a failed mmap) is read instead.
        func read() throws -> Data { try contents(of: url, operation: operation) }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return try read() }
        let size = Int(info.st_size)
        guard size > 0 else { return Data() }
        let flags = MAP_PRIVATE | MAP_POPULATE
        guard let address = mmap(nil, size, PROT_READ, flags, fd, 0), address != MAP_FAILED else { return try read() }
        return Data(bytesNoCopy: address, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }

    /// The bytes of a file, read into memory: what a stream decodes from as it plays, so a
    /// file truncated or rewritten meanwhile cannot touch what plays (a mapping of it would
    /// die of SIGBUS).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the reason.
    static func contents(of url: URL, operation: String) throws -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw SoundStageError(.fileAccess, operation: operation, object: url.path, reason: "cannot read the file (\(error.localizedDescription))")
        }
    }
}
