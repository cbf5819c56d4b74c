import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension SoundFile {
    /// The file at `url` opened for reading, when it is a regular file: opened without waiting
    /// (a FIFO with no writer would hold `open` for ever), and looked at (`fstat`) as opened,
    /// so what is read is what was checked. Returns the descriptor (the caller closes it) and
    /// the size.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file: it cannot
    ///   be opened, or it is a directory, a FIFO, a device or a socket.
    static func openRegular(_ url: URL, operation: String) throws -> (fd: Int32, size: Int) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw readFailure(url, operation, errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw readFailure(url, operation, code)
        }
        let kind = FileKind(mode: info.st_mode)
        guard kind.isRegular else {
            close(fd)
            throw SoundStageError(.fileAccess, operation: operation, object: url.path,
                                  reason: "it is \(kind), not a regular file (only regular files are read)")
        }
        return (fd, Int(info.st_size))
    }

    private static func readFailure(_ url: URL, _ operation: String, _ code: Int32) -> SoundStageError {
        SoundStageError(.fileAccess, operation: operation, object: url.path,
                        reason: code == ENOENT ? "cannot read the file (no such file)" : "cannot read the file (\(String(cString: strerror(code))))")
    }

    /// The bytes of a file about to be read whole, read at once into memory of its own, in huge
    /// pages where the kernel allows (`madvise(MADV_HUGEPAGE)`), or into `malloc`ed memory
    /// when that cannot be mapped. For 100 MB: 22 ms, against 43 ms into 4 KB pages populated
    /// first and 48 ms into `malloc`ed memory (measured).
    ///
    /// The file itself is not mapped, though a mapping costs only 6 ms: a mapping dies
    /// (SIGBUS) when its file is truncated under it, and it did so when a file was cut while it
    /// loaded. A file that shrinks while it is read gives the bytes it still had; one that
    /// grows, the size it had when opened.
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the
    ///   reason (``openRegular(_:operation:)``).
    static func wholeContents(of url: URL, operation: String) throws -> Data {
        let (fd, size) = try openRegular(url, operation: operation)
        defer { close(fd) }
        guard size > 0 else { return Data() }
        guard let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              address != MAP_FAILED else { return try read(fd, size: size, url, operation) }
        HugePages.advise(address, count: size)
        let done: Int
        do { done = try fill(address, size: size, from: fd, url, operation) } catch {
            munmap(address, size)
            throw error
        }
        return Data(bytesNoCopy: address, count: done, deallocator: .custom { _, _ in munmap(address, size) })
    }

    /// The bytes of a file, read into memory: what a stream decodes from as it plays, so a
    /// file truncated or rewritten meanwhile cannot touch what plays.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/fileAccess`` naming the file and the
    ///   reason (``openRegular(_:operation:)``).
    package static func contents(of url: URL, operation: String) throws -> Data {
        let (fd, size) = try openRegular(url, operation: operation)
        defer { close(fd) }
        return try read(fd, size: size, url, operation)
    }

    /// `size` bytes (or fewer, where the file ends first) of `fd` into memory of their own.
    private static func read(_ fd: Int32, size: Int, _ url: URL, _ operation: String) throws -> Data {
        guard size > 0 else { return Data() }
        var data = Data(count: size)
        let done = try data.withUnsafeMutableBytes { try fill($0.baseAddress!, size: size, from: fd, url, operation) }
        if done < size { data.count = done }
        return data
    }

    /// Reads `fd` from its start into `address` up to `size` bytes or its end; returns the
    /// bytes read.
    private static func fill(_ address: UnsafeMutableRawPointer, size: Int, from fd: Int32, _ url: URL, _ operation: String) throws -> Int {
        var done = 0
        while done < size {
            let got = pread(fd, address + done, size - done, off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw readFailure(url, operation, errno)
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}
