extension AudioSource {
    /// Copies every property of this source to `source`, on another context or device (a
    /// source rebuilt after its engine moved): all that can be set but the playback offsets
    /// and looping, which belong to what it plays.
    package func carryProperties(to source: AudioSource) throws {
        try carryProperties(SourceProperties.carried, to: source)
    }
}

extension AudioContext {
    /// Copies the context's properties (distance model, Doppler, speed of sound) and its
    /// listener's (gain, position, velocity, orientation) to `context`, on another device.
    package func carryState(to context: AudioContext) throws {
        try carryProperties(ContextProperties.carried, to: context)
        try listener.carryProperties(ListenerProperties.carried, to: context.listener)
    }
}
