import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes a whole file so it appears only when complete: written aside, then renamed over
/// the old one. Not so for a destination that is not a regular file (`/dev/null`, a FIFO, a
/// terminal): renaming would replace the device node itself, so those are written in place.
/// A symbolic link is followed, so its target is written and the link stays.
package enum WholeFileWrite {
    package static func write(_ data: Data, to url: URL) throws {
        let target = url.resolvingSymlinksInPath()
        var info = stat()
        let special = stat(target.path, &info) == 0 && (info.st_mode & S_IFMT) != S_IFREG
        try data.write(to: target, options: special ? [] : .atomic)
    }
}
