#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file descriptor that is closed exactly once, when the last reference
/// goes away. Shared between a watcher and its worker thread so that neither
/// side can close a descriptor the other may still write to.
package final class OwnedFD: Sendable {
    /// The raw descriptor; valid for the lifetime of this object.
    package let fd: Int32

    package init(_ fd: Int32) { self.fd = fd }

    deinit { _ = close(fd) }
}
