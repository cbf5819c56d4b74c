import COpenAL

extension AudioContext: PropertyOwner {
    var writeTarget: UncheckedWrite.Target { .context }
    var owningContext: AudioContext { self }
    var propertyObjectName: ALuint { 0 }
}

extension AudioContext {
    /// Reads a context property.
    public func get<V>(_ property: Property<AudioContext, V>) -> V { readProperty(property) }

    /// Writes a context property after validating it.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` naming the property and
    ///   the allowed range, or ``SoundStageError/Code-swift.struct/extensionMissing``.
    public func set<V>(_ property: Property<AudioContext, V>, to value: V) throws {
        try writeProperty(property, value)
    }
}

extension Property where Owner == AudioContext, Value == DistanceModel {
    /// The distance model of the context (`alDistanceModel`). Default ``DistanceModel/inverseClamped``.
    public static var distanceModel: Self { Self(ContextProperties.distanceModel) }
}

extension Property where Owner == AudioContext, Value == Float {
    /// The Doppler factor (`alDopplerFactor`), at least 0; 0 turns Doppler off. Default 1.
    public static var dopplerFactor: Self { Self(ContextProperties.dopplerFactor) }

    /// The speed of sound in units per second (`alSpeedOfSound`), above 0. Default 343.3.
    public static var speedOfSound: Self { Self(ContextProperties.speedOfSound) }
}

extension Property where Owner == AudioContext, Value == Bool {
    /// Whether each source's own `distanceModel` property is used instead of the context's
    /// (`alEnable(AL_SOURCE_DISTANCE_MODEL)`, `AL_EXT_source_distance_model`). Default false.
    public static var perSourceDistanceModel: Self { Self(ContextProperties.perSourceDistanceModel) }
}

/// Every property of this file, made once and kept for the life of the process: the
/// `static var`s above hand out properties that refer to these without retaining them.
enum ContextProperties {
    static let distanceModel = PropertyAccessor<DistanceModel>("distanceModel", AL_DISTANCE_MODEL,
        read: { _, p in DistanceModel(al: alGetInteger(p)) },
        write: { _, _, v in alDistanceModel(v.alValue) })
    static let dopplerFactor = PropertyAccessor<Float>("dopplerFactor", AL_DOPPLER_FACTOR,
        read: { _, p in alGetFloat(p) },
        write: { _, _, v in alDopplerFactor(v) },
        validate: ALValue.atLeastZero)
    static let speedOfSound = PropertyAccessor<Float>("speedOfSound", AL_SPEED_OF_SOUND,
        read: { _, p in alGetFloat(p) },
        write: { _, _, v in alSpeedOfSound(v) },
        validate: { v, _ in v > 0 && v.isFinite ? nil : "speedOfSound must be finite and above 0, got \(v)" })
    static let perSourceDistanceModel = PropertyAccessor<Bool>("perSourceDistanceModel", AL_SOURCE_DISTANCE_MODEL, extension: "AL_EXT_source_distance_model",
        read: { _, p in alIsEnabled(p) != 0 },
        write: { _, p, v in if v { alEnable(p) } else { alDisable(p) } })

    /// The properties a context carries to its replacement on another device: all of them.
    static let carried: [PropertyCarrier] = [
        PropertyCarrier(distanceModel), PropertyCarrier(dopplerFactor), PropertyCarrier(speedOfSound),
        PropertyCarrier(perSourceDistanceModel),
    ]
}
