import CSystemd

/// A D-Bus value as MPRIS players send them: the variants of a property map (`a{sv}`), read
/// from an sd-bus message.
enum BusValue: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case strings([String])
    case dictionary([String: BusValue])
    /// A type SoundStage does not read (skipped in the message).
    case other(String)

    var string: String? {
        switch self {
        case .string(let s), .objectPath(let s): s
        case .strings(let list): list.isEmpty ? nil : PeerText.bounded(list.joined(separator: ", "))
        default: nil
        }
    }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var int: Int64? {
        switch self {
        case .int(let i): i
        case .double(let d) where d.isFinite && abs(d) < 9e18: Int64(d)
        default: nil
        }
    }
    var double: Double? {
        switch self {
        case .double(let d): d
        case .int(let i): Double(i)
        default: nil
        }
    }
    var strings: [String]? {
        switch self {
        case .strings(let list): list
        case .string(let s): [s]
        default: nil
        }
    }
    var dictionary: [String: BusValue]? { if case .dictionary(let d) = self { d } else { nil } }
}

/// Reads D-Bus values from an sd-bus message, in place (the message's read position moves).
/// Every read is bounded by what the message holds: a malformed or unexpected message gives
/// nil or `.other`, never a crash.
struct BusReader {
    let message: OpaquePointer

    private static func code(_ c: Character) -> CChar { CChar(bitPattern: c.asciiValue ?? 0) }

    /// A string (or object path) argument, as a peer's text is kept (``PeerText``: at most
    /// 4 KB, no control characters).
    func string(type: Character = "s") -> String? {
        var text: UnsafePointer<CChar>?
        guard libsystemd.message_read_basic(message, Self.code(type), &text) > 0, let text else { return nil }
        return PeerText.read(text)
    }

    /// An `a{sv}` argument: a property map.
    func properties() -> [String: BusValue]? {
        guard libsystemd.message_enter_container(message, Self.code("a"), "{sv}") > 0 else { return nil }
        var map: [String: BusValue] = [:]
        while libsystemd.message_enter_container(message, Self.code("e"), "sv") > 0 {
            guard let key = string() else { return nil }
            guard let value = variant() else { return nil }
            map[key] = value
            guard libsystemd.message_exit_container(message) >= 0 else { return nil }
        }
        guard libsystemd.message_exit_container(message) >= 0 else { return nil }
        return map
    }

    /// The most strings of an `as` value in a property map kept (the rest are read past).
    static let longestList = 256

    /// An `as` argument, its first `limit` strings.
    func strings(limit: Int = .max) -> [String]? {
        guard libsystemd.message_enter_container(message, Self.code("a"), "s") > 0 else { return nil }
        var list: [String] = []
        while let s = string() { if list.count < limit { list.append(s) } }
        guard libsystemd.message_exit_container(message) >= 0 else { return nil }
        return list
    }

    /// A variant (`v`): its contents read by their signature.
    func variant() -> BusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard libsystemd.message_peek_type(message, &type, &contents) > 0, type == Self.code("v"), let contents else { return nil }
        let signature = String(cString: contents)
        guard libsystemd.message_enter_container(message, Self.code("v"), contents) > 0 else { return nil }
        let value = value(signature)
        guard let value, libsystemd.message_exit_container(message) >= 0 else { return nil }
        return value
    }

    /// A value of signature `signature` (inside a variant).
    private func value(_ signature: String) -> BusValue? {
        func basic<T: BitwiseCopyable>(_ zero: T, _ type: Character) -> T? {
            var v = zero
            let read = withUnsafeMutableBytes(of: &v) { libsystemd.message_read_basic(message, Self.code(type), $0.baseAddress) }
            return read > 0 ? v : nil
        }
        switch signature {
        case "s": return string().map(BusValue.string)
        case "o": return string(type: "o").map(BusValue.objectPath)
        case "b": return basic(Int32(0), "b").map { .bool($0 != 0) }
        case "x": return basic(Int64(0), "x").map(BusValue.int)
        case "t": return basic(UInt64(0), "t").map { .int(Int64(clamping: $0)) }
        case "i": return basic(Int32(0), "i").map { .int(Int64($0)) }
        case "u": return basic(UInt32(0), "u").map { .int(Int64($0)) }
        case "n": return basic(Int16(0), "n").map { .int(Int64($0)) }
        case "q": return basic(UInt16(0), "q").map { .int(Int64($0)) }
        case "y": return basic(UInt8(0), "y").map { .int(Int64($0)) }
        case "d": return basic(Double(0), "d").map(BusValue.double)
        case "as": return strings(limit: Self.longestList).map(BusValue.strings)
        case "a{sv}": return properties().map(BusValue.dictionary)
        default:
            return libsystemd.message_skip(message, signature) >= 0 ? .other(signature) : nil
        }
    }
}
