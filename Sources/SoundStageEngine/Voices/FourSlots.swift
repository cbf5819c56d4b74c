/// What four slots of the voice table share (slots `4 g` to `4 g + 3`), in 4 bytes: their bus
/// and priority when all four have the same ones (the bus in the low 24 bits, the priority in
/// the high 8), else ``mixed``. The tick reads it for four plain voices at once in place of
/// their bus and priority lanes (20 bytes): at 100,000 voices, 0.1 MB a tick rather than 0.5.
/// ``VoiceTable/setRow(_:_:)`` writes it with the slot's bus and priority, their only writer
/// but for the table's growth, which makes new slots alike (bus 0, priority 128).
struct FourSlots: Equatable {
    let rawValue: UInt32

    /// Four slots on more than one bus, or of more than one priority (or on a bus numbered
    /// 0xFFFFFF or more, or below 0).
    static let mixed = FourSlots(rawValue: .max)

    init(rawValue: UInt32) { self.rawValue = rawValue }

    /// What slots on `buses` with `priorities` share.
    init(buses: SIMD4<Int32>, priorities: SIMD4<UInt8>) {
        let bus = buses[0], priority = priorities[0]
        guard buses == SIMD4(repeating: bus), priorities == SIMD4(repeating: priority), bus >= 0, bus < Self.busMask else {
            self = .mixed
            return
        }
        rawValue = UInt32(bus) | UInt32(priority) << 24
    }

    private static let busMask: Int32 = 0xFF_FFFF

    var isMixed: Bool { self == .mixed }

    /// The bus all four are on (not for ``mixed``).
    var bus: Int { Int(rawValue & UInt32(Self.busMask)) }

    /// The priority of all four (not for ``mixed``).
    var priority: UInt64 { UInt64(rawValue >> 24) }
}
