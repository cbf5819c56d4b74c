/// The buses and the ducking rules between them: a part of ``VoicePoolState``, worked on by
/// the pool's bus functions (Buses/).
struct BusTree {
    /// The buses, the standard ones first; a bus's parent comes before it.
    var buses: [BusState] = []
    var ducking: [DuckingState] = []
}
