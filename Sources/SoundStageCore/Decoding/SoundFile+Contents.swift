import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SoundFile {
    /// The bytes of a file about to be read whole, read at once into memory of its own, in huge
    /// pages where the kernel allows (`madvise(MADV_HUGEPAGE)`), or read as any other file
    /// when it is not a regular file or the memory cannot be mapped. For 100 MB: 22 ms, against
    /// 43 ms into 4 KB pages populated first and 48 ms into `malloc`ed memory (measured).
    ///
    /// The file itself is not mapped, though a mapping costs only 6 ms: a mapping dies
    /// (SIGBUS) when its file is truncated under it, and it did so when a file was cut while it
    /// loaded. A file that shrinks while it is read gives the bytes it still had; one that
    /// grows, the size it had when opened.
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the reason.
    static func wholeContents(of url: URL, operation: String) throws -> Data {
        func failure(_ code: Int32) -> SoundStageError {
            SoundStageError(.fileAccess, operation: operation, object: url.path, reason: "cannot read the file (\(String(cString: strerror(code))))")
        }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw directory(url, operation) }
        // What is not a regular file (a pipe, a device) has no size to read up to.
        guard (info.st_mode & S_IFMT) == S_IFREG else { return try contents(of: url, operation: operation) }
        let size = Int(info.st_size)
        guard size > 0 else { return Data() }
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              address != MAP_FAILED else { return try contents(of: url, operation: operation) }
        HugePages.advise(address, count: size)
        var done = 0
        while done < size {
            let got = pread(fd, address + done, size - done, off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                let code = errno
                munmap(address, size)
                throw failure(code)
            }
            if got == 0 { break }
            done += got
        }
        return Data(bytesNoCopy: address, count: done, deallocator: .custom { _, _ in munmap(address, size) })
    }

    /// The bytes of a file, read into memory: what a stream decodes from as it plays, so a
    /// file truncated or rewritten meanwhile cannot touch what plays.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the reason.
    package static func contents(of url: URL, operation: String) throws -> Data {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw directory(url, operation)
        }
        do { return try Data(contentsOf: url) } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? error.localizedDescription : "no such file"
            throw SoundStageError(.fileAccess, operation: operation, object: url.path, reason: "cannot read the file (\(reason))")
        }
    }

    /// The error for a directory where a sound file was asked for.
    private static func directory(_ url: URL, _ operation: String) -> SoundStageError {
        SoundStageError(.fileAccess, operation: operation, object: url.path, reason: "it is a directory, not a sound file")
    }
}
