import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// Adds a reverb zone (see ``ReverbZone``), or replaces the zone of the same name (to
    /// move or reshape it, or change its reverb). The service loop follows the listener:
    /// each zone the listener is in plays in an effect slot of its own, its return rising
    /// with the listener's weight in it (the square root of the weight, so two overlapping
    /// zones crossfade at equal power), from -60 dB to full, and never faster than
    /// ``reverbZoneFadeSeconds`` allows, so walking in, jumping in and leaving are all
    /// smooth. Up to three zones are heard at once (one per auxiliary send after the first;
    /// an engine asks for 4 sends unless told otherwise); more wait, the heaviest first, and a
    /// zone clearly heavier than the lightest one heard takes its lane once that has faded
    /// out.
    ///
    /// Every voice and player sends to the zones (filtered by its occlusion) unless its bus
    /// says not (``Bus/sendsToReverbZones``: off for music and UI). The zones follow the
    /// engine to another device.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a zone with no
    ///   name, an inner shape not inside its outer one, or a reverb parameter out of range;
    ///   ``SoundStageError/Code-swift.struct/invalidState`` when the context grants fewer
    ///   than 2 auxiliary sends; what making the slots throws (no EFX, no slot left).
    public func addReverbZone(_ zone: ReverbZone) throws {
        try voices.setZone(zone, context: context)
    }

    /// Removes the zone named `name`; its reverb fades out as if the listener left it.
    ///
    /// - Returns: false when the engine has no zone of that name.
    @discardableResult
    public func removeReverbZone(named name: String) -> Bool { voices.removeZone(named: name) }

    /// The engine's reverb zones, in the order added.
    public var reverbZones: [ReverbZone] { voices.zones }

    /// The listener's weight in each zone, 0...1, by name, as of the last service tick
    /// (zones fading out after removal read 0).
    public var reverbZoneWeights: [String: Float] { voices.zoneLevels.weights }

    /// The gain each zone's reverb returns at now, 0...1, by name: where its fade is (a
    /// zone given a new reverb counts its old one until that has faded out).
    public var reverbZoneReturns: [String: Float] { voices.zoneLevels.returns }

    /// The shortest time, in seconds, for a zone's return to rise from -60 dB to full or
    /// fall back (2 by default, so it moves at most 0.3 dB in a 10 ms tick): a listener
    /// walking in hears the zone as fast as they walk, one teleported in hears it fade in
    /// over this time. 0 follows the listener at once. Negative and non-finite values are
    /// ignored.
    public var reverbZoneFadeSeconds: Float {
        get { voices.state.withLockedValue { $0.zones.fadeSeconds } }
        set { if newValue.isFinite, newValue >= 0 { voices.state.withLockedValue { $0.zones.fadeSeconds = newValue } } }
    }
}
