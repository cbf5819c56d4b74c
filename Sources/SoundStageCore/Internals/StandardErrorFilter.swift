#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs a call with the process's standard error caught in a memory file, and writes what was
/// caught back after it, but the lines that hold a given text: a library's message that the
/// call is known to print and that means nothing is wrong. Lines other threads wrote meanwhile
/// come out after the call, in order; none is lost.
enum StandardErrorFilter {
    static func dropping<T>(linesContaining text: String, _ body: () throws -> T) rethrows -> T {
        guard let memfdCreate = MemoryFile.create else { return try body() }
        let caught = memfdCreate("soundstage-stderr", 1)   // MFD_CLOEXEC
        guard caught >= 0 else { return try body() }
        fflush(nil)
        let saved = dup(2)
        guard saved >= 0, dup2(caught, 2) >= 0 else {
            if saved >= 0 { close(saved) }
            close(caught)
            return try body()
        }
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
            var bytes: [UInt8] = []
            var block = [UInt8](repeating: 0, count: 4_096)
            var offset: off_t = 0
            while true {
                let n = block.withUnsafeMutableBytes { pread(caught, $0.baseAddress, $0.count, offset) }
                guard n > 0 else { break }
                bytes += block[0..<n]
                offset += off_t(n)
            }
            close(caught)
            let kept = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains(text) }.joined(separator: "\n")
            if !kept.isEmpty { _ = kept.withCString { write(2, $0, strlen($0)) } }
        }
        return try body()
    }
}
