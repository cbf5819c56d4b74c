/// A Swift enumeration of OpenAL constants, mapped both ways through one table instead of
/// a switch each way.
protocol ALEnumeration: Equatable {
    /// Each case with its OpenAL value.
    static var alValues: [(Self, Int32)] { get }
    /// The case a value missing from the table reads as.
    static var fallback: Self { get }
}

extension ALEnumeration {
    /// The case for an OpenAL value, ``fallback`` for one the table lacks.
    init(al value: Int32) {
        self = Self.alValues.first { $0.1 == value }?.0 ?? Self.fallback
    }

    /// The OpenAL value of this case (0 for a case the table lacks).
    var alValue: Int32 { Self.alValues.first { $0.0 == self }?.1 ?? 0 }
}
