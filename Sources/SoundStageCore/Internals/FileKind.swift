#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a path names, in words (`lstat`'s or `fstat`'s mode): for errors.
package struct FileKind: CustomStringConvertible {
    package let mode: mode_t

    package init(mode: mode_t) { self.mode = mode }

    /// Whether it is a regular file.
    package var isRegular: Bool { mode & S_IFMT == S_IFREG }

    /// E.g. `a directory`, `a FIFO`.
    package var description: String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of another kind"
        }
    }
}
