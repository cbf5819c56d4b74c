#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Text a peer on the bus sent (a player's title, artist, identity, a name), as SoundStage
/// keeps it: at most ``longest`` bytes of UTF-8, cut where a character starts, with control
/// characters (C0, DEL, C1: what a terminal takes as escape sequences, a title change or an
/// OSC 52 clipboard write among them) removed. A D-Bus string may be 128 MiB; only the bytes
/// kept are read.
enum PeerText {
    /// 4 KB.
    static let longest = 4_096

    /// The text at `text` (a NUL-terminated string from a message), bounded and cleaned.
    static func read(_ text: UnsafePointer<CChar>) -> String {
        let count = strnlen(text, longest + 1)
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        var end = min(count, longest)
        // Cut over: back to the start of the character the cut fell inside.
        if count > longest { while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 } }
        return clean(String(decoding: UnsafeBufferPointer(start: bytes, count: end), as: UTF8.self))
    }

    /// `text` (clean already) cut to ``longest`` bytes where a character starts.
    static func bounded(_ text: String) -> String {
        guard text.utf8.count > longest else { return text }
        let bytes = Array(text.utf8)
        var end = longest
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `text` without its control characters.
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !isControl($0) })
        return String(kept)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
}
