import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Opening the output device without its noise: while OpenAL Soft probes its backends, ALSA
/// and OpenAL Soft print their complaints to standard error (nine lines on a machine with no
/// sound card and no server), before the game can say anything clearly. They are held aside
/// while the device opens, and dropped: the game then says, in one line, what happened.
enum QuietOpen {
    static func run<R>(_ body: () throws -> R) rethrows -> R {
        fflush(nil)
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if saved >= 0, null >= 0 { dup2(null, 2) }
        if null >= 0 { close(null) }
        defer {
            fflush(nil)
            if saved >= 0 {
                dup2(saved, 2)
                close(saved)
            }
        }
        return try body()
    }
}
