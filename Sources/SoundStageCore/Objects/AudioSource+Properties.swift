import COpenAL

// The property table of AudioSource: every OpenAL 1.1 source property and those of
// OpenAL Soft 1.19, each with the checks that keep OpenAL from ever seeing a bad value.

@Sendable private func readFloat(_ n: ALuint, _ p: Int32) -> Float { var v: Float = 0; alGetSourcef(n, p, &v); return v }
@Sendable private func readInt(_ n: ALuint, _ p: Int32) -> Int32 { var v: ALint = 0; alGetSourcei(n, p, &v); return v }
@Sendable private func readVector(_ n: ALuint, _ p: Int32) -> SIMD3<Float> {
    var x: Float = 0, y: Float = 0, z: Float = 0
    alGetSource3f(n, p, &x, &y, &z)
    return SIMD3(x, y, z)
}

extension Property where Owner == AudioSource, Value == Float {
    /// Linear gain (`AL_GAIN`), at least 0. Default 1.
    public static var gain: Self { Self(SourceProperties.gain) }
    /// The lowest gain distance attenuation can bring the source to (`AL_MIN_GAIN`), 0...1. Default 0.
    public static var minGain: Self { Self(SourceProperties.minGain) }
    /// The highest gain after attenuation (`AL_MAX_GAIN`), 0...1. Default 1.
    public static var maxGain: Self { Self(SourceProperties.maxGain) }
    /// Playback speed and pitch factor (`AL_PITCH`), at least 0. Default 1.
    public static var pitch: Self { Self(SourceProperties.pitch) }
    /// Inside this angle around ``direction`` the source plays at full gain
    /// (`AL_CONE_INNER_ANGLE`), 0...360 degrees. Default 360.
    public static var coneInnerAngle: Self { Self(SourceProperties.coneInnerAngle) }
    /// Outside this angle the gain is ``coneOuterGain`` (`AL_CONE_OUTER_ANGLE`), 0...360 degrees. Default 360.
    public static var coneOuterAngle: Self { Self(SourceProperties.coneOuterAngle) }
    /// The gain outside the outer cone (`AL_CONE_OUTER_GAIN`), 0...1. Default 0.
    public static var coneOuterGain: Self { Self(SourceProperties.coneOuterGain) }
    /// The distance at which attenuation starts (`AL_REFERENCE_DISTANCE`), at least 0. Default 1.
    public static var referenceDistance: Self { Self(SourceProperties.referenceDistance) }
    /// The distance beyond which clamped models stop attenuating (`AL_MAX_DISTANCE`), at
    /// least 0. Default `Float.greatestFiniteMagnitude`.
    public static var maxDistance: Self { Self(SourceProperties.maxDistance) }
    /// How fast gain falls with distance (`AL_ROLLOFF_FACTOR`), at least 0. Default 1.
    public static var rolloffFactor: Self { Self(SourceProperties.rolloffFactor) }
    /// The source's radius in units (`AL_SOURCE_RADIUS`, `AL_EXT_SOURCE_RADIUS`): a large
    /// source near the listener sounds spread rather than pin-point. At least 0. Default 0.
    public static var radius: Self { Self(SourceProperties.radius) }

    /// The playback offset in seconds (`AL_SEC_OFFSET`), at least 0 and before the end of
    /// the buffer (or queue). Setting it on a playing source seeks at once; on a stopped one,
    /// at the next play.
    public static var secondOffset: Self { Self(SourceProperties.secondOffset) }
}

extension Property where Owner == AudioSource, Value == Int {
    /// The playback offset in sample frames (`AL_SAMPLE_OFFSET`).
    public static var sampleOffset: Self { Self(SourceProperties.sampleOffset) }
    /// The playback offset in bytes of the buffer (`AL_BYTE_OFFSET`); ADPCM offsets are
    /// rounded to a block.
    public static var byteOffset: Self { Self(SourceProperties.byteOffset) }

    /// How many buffers are queued (`AL_BUFFERS_QUEUED`). Read-only.
    public static var buffersQueued: Self { Self(SourceProperties.buffersQueued) }
    /// How many queued buffers have finished playing (`AL_BUFFERS_PROCESSED`). Read-only.
    public static var buffersProcessed: Self { Self(SourceProperties.buffersProcessed) }

    /// The resampler, an index into ``AudioContext/resamplers`` (`AL_SOURCE_RESAMPLER_SOFT`,
    /// `AL_SOFT_source_resampler`). Default ``AudioContext/defaultResampler``.
    public static var resampler: Self { Self(SourceProperties.resampler) }
}

extension Property where Owner == AudioSource, Value == SIMD3<Float> {
    /// Position in the world, or relative to the listener when ``isRelative`` (`AL_POSITION`).
    public static var position: Self { Self(SourceProperties.position) }
    /// Velocity in units per second, for Doppler only (`AL_VELOCITY`); it does not move the source.
    public static var velocity: Self { Self(SourceProperties.velocity) }
    /// The direction of the cone (`AL_DIRECTION`); zero means omnidirectional. Default zero.
    public static var direction: Self { Self(SourceProperties.direction) }
}

extension Property where Owner == AudioSource, Value == Bool {
    /// Whether `position`, `velocity` and ``direction`` are relative to the listener
    /// (`AL_SOURCE_RELATIVE`). Default false.
    public static var isRelative: Self { Self(SourceProperties.isRelative) }
    /// Whether the source loops its buffer (or whole queue) (`AL_LOOPING`). Default false.
    public static var isLooping: Self { Self(SourceProperties.isLooping) }
    /// Whether a multichannel sound's channels go straight to the matching outputs with no
    /// virtualisation (`AL_DIRECT_CHANNELS_SOFT`, `AL_SOFT_direct_channels`). Default false.
    public static var directChannels: Self { Self(SourceProperties.directChannels) }
}

extension Property where Owner == AudioSource, Value == SIMD2<Float> {
    /// The angles in radians, counter-clockwise from straight ahead, at which a stereo
    /// sound's left and right channels are placed (`AL_STEREO_ANGLES`, `AL_EXT_STEREO_ANGLES`).
    /// Default (pi/6, -pi/6).
    public static var stereoAngles: Self { Self(SourceProperties.stereoAngles) }
}

extension Property where Owner == AudioSource, Value == SourceState {
    /// Initial, playing, paused or stopped (`AL_SOURCE_STATE`). Read-only; use play, pause,
    /// stop and rewind.
    public static var state: Self { Self(SourceProperties.state) }
}

extension Property where Owner == AudioSource, Value == SourceType {
    /// Static, streaming or undetermined (`AL_SOURCE_TYPE`). Read-only.
    public static var type: Self { Self(SourceProperties.type) }
}

extension Property where Owner == AudioSource, Value == Spatialization {
    /// Whether the source is positioned in 3D (`AL_SOURCE_SPATIALIZE_SOFT`,
    /// `AL_SOFT_source_spatialize`). Default ``Spatialization/auto``.
    public static var spatialize: Self { Self(SourceProperties.spatialize) }
}

extension Property where Owner == AudioSource, Value == DistanceModel {
    /// This source's own distance model (`AL_DISTANCE_MODEL` on a source,
    /// `AL_EXT_source_distance_model`), used when the context's
    /// ``Property/perSourceDistanceModel`` is on. Default ``DistanceModel/inverseClamped``.
    public static var distanceModel: Self { Self(SourceProperties.distanceModel) }
}

extension Property where Owner == AudioSource, Value == Double {
    /// The playback offset in sample frames with the fraction the mixer keeps
    /// (`AL_SAMPLE_OFFSET` through `alSourcedSOFT`, `AL_SOFT_source_latency`): 12.25 starts
    /// a quarter of a frame after frame 12, in the mixer's own fixed point (1/4096 of a
    /// frame before OpenAL Soft 1.23, 1/65536 from it). At least 0 and before the end of
    /// the buffer (or queue).
    public static var preciseSampleOffset: Self { Self(SourceProperties.preciseSampleOffset) }
}

extension Property where Owner == AudioSource, Value == OffsetWithLatency {
    /// The playback offset with the output latency (`AL_SEC_OFFSET_LATENCY_SOFT`,
    /// `AL_SOFT_source_latency`), in double precision. Read-only. While a reset of a
    /// device waits on the sound server (an HRTF switch, a latency change), the offset with a
    /// latency of 0: OpenAL Soft reads the latency under locks a reset holds.
    public static var offsetWithLatency: Self { Self(SourceProperties.offsetWithLatency) }
}

extension AudioSource {
    /// The playback offset in whole frames and the output latency behind it in nanoseconds
    /// (`AL_SAMPLE_OFFSET_LATENCY_SOFT`, `AL_SOFT_source_latency`): what is heard now is
    /// `frames - latency * rate`. Check the extension first.
    package func sampleOffsetWithLatency() -> (frames: Int, latencyNanoseconds: Int64) {
        let (offset, latency) = sampleOffset(with: AL_SAMPLE_OFFSET_LATENCY_SOFT, "sampleOffsetWithLatency()")
        return (Int(offset >> 32), latency)
    }

    /// The same with the offset's fraction of a frame: the offset in 32.32 fixed point, as
    /// OpenAL gives it.
    package func fixedSampleOffsetWithLatency() -> (offset: Int64, latencyNanoseconds: Int64) {
        sampleOffset(with: AL_SAMPLE_OFFSET_LATENCY_SOFT, "sampleOffsetWithLatency()")
    }

    /// The mixer's playback offset in whole frames (no latency taken off) and the device clock
    /// in nanoseconds at that offset, read together (`AL_SAMPLE_OFFSET_CLOCK_SOFT`, with
    /// `ALC_SOFT_device_clock`): the source reaches frame `frames + r * (t - clock)` at device
    /// clock `t` while it plays at `r` frames a nanosecond. Check the extensions first.
    package func sampleOffsetWithClock() -> (frames: Int, clockNanoseconds: Int64) {
        let (offset, clock) = sampleOffset(with: AL_SAMPLE_OFFSET_CLOCK_SOFT, "sampleOffsetWithClock()")
        return (Int(offset >> 32), clock)
    }

    /// The offset in 32.32 fixed point and the 64-bit value read with it; an error is logged
    /// and reads as zeros.
    private func sampleOffset(with parameter: ALenum, _ member: String) -> (Int64, Int64) {
        var values: [Int64] = [0, 0]
        let name = self.name
        do {
            try OpenAL.withContext(context.handle) { scope in
                try scope.call(Self.operationName(member), on: description) {
                    guard parameter == AL_SAMPLE_OFFSET_LATENCY_SOFT else { return alGetSourcei64vSOFT(name, parameter, &values) }
                    // Not during a round trip (DeviceRoundTrip: a reset and this read take OpenAL
                    // Soft's locks in opposite orders; none starts while this one reads): then
                    // the offset alone, and the latency the device last reported.
                    let device = context.device
                    guard DeviceRoundTrip.unlessAnyRunning({ alGetSourcei64vSOFT(name, parameter, &values) }) != nil else {
                        var frames: ALint = 0
                        alGetSourcei(name, AL_SAMPLE_OFFSET, &frames)
                        values = [Int64(frames) << 32, device.latencyNanoseconds ?? 0]
                        return
                    }
                }
            }
        } catch {
            Log.report(error)
        }
        return (values[0], values[1])
    }
}

/// Every property of this file, made once and kept for the life of the process: the
/// `static var`s above hand out properties that refer to these without retaining them.
enum SourceProperties {
    static let gain: PropertyAccessor<Float> = .float("gain", AL_GAIN, ALValue.atLeastZero)
    static let minGain: PropertyAccessor<Float> = .float("minGain", AL_MIN_GAIN, ALValue.unit)
    static let maxGain: PropertyAccessor<Float> = .float("maxGain", AL_MAX_GAIN, ALValue.unit)
    static let pitch: PropertyAccessor<Float> = .float("pitch", AL_PITCH, ALValue.atLeastZero)
    static let coneInnerAngle: PropertyAccessor<Float> = .float("coneInnerAngle", AL_CONE_INNER_ANGLE, ALValue.degrees)
    static let coneOuterAngle: PropertyAccessor<Float> = .float("coneOuterAngle", AL_CONE_OUTER_ANGLE, ALValue.degrees)
    static let coneOuterGain: PropertyAccessor<Float> = .float("coneOuterGain", AL_CONE_OUTER_GAIN, ALValue.unit)
    static let referenceDistance: PropertyAccessor<Float> = .float("referenceDistance", AL_REFERENCE_DISTANCE, ALValue.atLeastZero)
    static let maxDistance: PropertyAccessor<Float> = .float("maxDistance", AL_MAX_DISTANCE, ALValue.atLeastZero)
    static let rolloffFactor: PropertyAccessor<Float> = .float("rolloffFactor", AL_ROLLOFF_FACTOR, ALValue.atLeastZero)
    static let radius: PropertyAccessor<Float> = .float("radius", AL_SOURCE_RADIUS, ALValue.atLeastZero, extension: "AL_EXT_SOURCE_RADIUS")
    static let secondOffset = PropertyAccessor<Float>("secondOffset", AL_SEC_OFFSET, read: readFloat,
        write: { n, p, v in alSourcef(n, p, v) },
        validate: ALValue.atLeastZero, offsetUnit: .seconds)
    static let sampleOffset: PropertyAccessor<Int> = .offset("sampleOffset", AL_SAMPLE_OFFSET, .samples)
    static let byteOffset: PropertyAccessor<Int> = .offset("byteOffset", AL_BYTE_OFFSET, .bytes)
    static let preciseSampleOffset = PropertyAccessor<Double>("preciseSampleOffset", AL_SAMPLE_OFFSET, extension: "AL_SOFT_source_latency",
        read: { n, p in
            var v: Double = 0
            alGetSourcedSOFT(n, p, &v)
            return v
        },
        write: { n, p, v in alSourcedSOFT(n, p, v) },
        validate: { v, name in v.isFinite && v >= 0 && v <= Double(Int32.max) ? nil : "\(name) must be in 0...\(Int32.max), got \(v)" },
        offsetUnit: .samples)
    static let buffersQueued = PropertyAccessor<Int>("buffersQueued", AL_BUFFERS_QUEUED, read: { n, p in Int(readInt(n, p)) }, write: nil)
    static let buffersProcessed = PropertyAccessor<Int>("buffersProcessed", AL_BUFFERS_PROCESSED, read: { n, p in Int(readInt(n, p)) }, write: nil)
    static let resampler = PropertyAccessor<Int>("resampler", AL_SOURCE_RESAMPLER_SOFT, extension: "AL_SOFT_source_resampler",
        read: { n, p in Int(readInt(n, p)) },
        write: { n, p, v in alSourcei(n, p, ALint(v)) },
        validate: { v, _ in
            let count = Int(alGetInteger(AL_NUM_RESAMPLERS_SOFT))
            return (0..<count).contains(v) ? nil : "resampler must be in 0..<\(count), got \(v)"
        })
    static let position: PropertyAccessor<SIMD3<Float>> = .vector("position", AL_POSITION)
    static let velocity: PropertyAccessor<SIMD3<Float>> = .vector("velocity", AL_VELOCITY)
    static let direction: PropertyAccessor<SIMD3<Float>> = .vector("direction", AL_DIRECTION)
    static let isRelative: PropertyAccessor<Bool> = .flag("isRelative", AL_SOURCE_RELATIVE)
    static let isLooping: PropertyAccessor<Bool> = .flag("isLooping", AL_LOOPING)
    static let directChannels: PropertyAccessor<Bool> = .flag("directChannels", AL_DIRECT_CHANNELS_SOFT, extension: "AL_SOFT_direct_channels")
    static let stereoAngles = PropertyAccessor<SIMD2<Float>>("stereoAngles", AL_STEREO_ANGLES, extension: "AL_EXT_STEREO_ANGLES",
        read: { n, p in
            var v: [Float] = [0, 0]
            alGetSourcefv(n, p, &v)
            return SIMD2(v[0], v[1])
        },
        write: { n, p, v in
            let values: [Float] = [v.x, v.y]
            alSourcefv(n, p, values)
        },
        validate: { v, _ in v.x.isFinite && v.y.isFinite ? nil : "stereoAngles must be finite, got \(v)" })
    static let state = PropertyAccessor<SourceState>("state", AL_SOURCE_STATE, read: { n, p in SourceState(al: readInt(n, p)) }, write: nil)
    static let type = PropertyAccessor<SourceType>("type", AL_SOURCE_TYPE, read: { n, p in SourceType(al: readInt(n, p)) }, write: nil)
    static let spatialize = PropertyAccessor<Spatialization>("spatialize", AL_SOURCE_SPATIALIZE_SOFT, extension: "AL_SOFT_source_spatialize",
        read: { n, p in Spatialization(al: readInt(n, p)) },
        write: { n, p, v in alSourcei(n, p, v.alValue) })
    static let distanceModel = PropertyAccessor<DistanceModel>("distanceModel", AL_DISTANCE_MODEL, extension: "AL_EXT_source_distance_model",
        read: { n, p in DistanceModel(al: readInt(n, p)) },
        write: { n, p, v in alSourcei(n, p, v.alValue) })
    static let offsetWithLatency = PropertyAccessor<OffsetWithLatency>("offsetWithLatency", AL_SEC_OFFSET_LATENCY_SOFT, extension: "AL_SOFT_source_latency",
        read: { n, p in
            var v: [Double] = [0, 0]
            // Not during a device reset (DeviceRoundTrip: the two take OpenAL Soft's locks in
            // opposite orders): then the offset alone, the latency 0 while the stream is made again.
            if DeviceRoundTrip.unlessAnyRunning({ alGetSourcedvSOFT(n, p, &v) }) == nil {
                alGetSourcedvSOFT(n, AL_SEC_OFFSET, &v)
                v[1] = 0
            }
            return OffsetWithLatency(offset: v[0], latency: v[1])
        },
        write: nil)

    /// The properties a source carries to its replacement on another device: every writable
    /// one but the playback offsets and looping, which the player's feed sets.
    static let carried: [PropertyCarrier] = [
        PropertyCarrier(gain), PropertyCarrier(minGain), PropertyCarrier(maxGain), PropertyCarrier(pitch),
        PropertyCarrier(coneInnerAngle), PropertyCarrier(coneOuterAngle), PropertyCarrier(coneOuterGain),
        PropertyCarrier(referenceDistance), PropertyCarrier(maxDistance), PropertyCarrier(rolloffFactor),
        PropertyCarrier(radius), PropertyCarrier(resampler), PropertyCarrier(position), PropertyCarrier(velocity),
        PropertyCarrier(direction), PropertyCarrier(isRelative), PropertyCarrier(directChannels),
        PropertyCarrier(stereoAngles), PropertyCarrier(spatialize), PropertyCarrier(distanceModel),
    ]
}

extension PropertyAccessor where Value == Float {
    fileprivate static func float(_ name: String, _ param: Int32, _ validate: @escaping @Sendable (Float, String) -> String?, extension ext: String? = nil) -> PropertyAccessor<Float> {
        PropertyAccessor(name, param, extension: ext, read: readFloat,
                 write: { n, p, v in alSourcef(n, p, v) },
                 validate: validate)
    }
}

extension PropertyAccessor where Value == Int {
    fileprivate static func offset(_ name: String, _ param: Int32, _ unit: OffsetUnit) -> PropertyAccessor<Int> {
        PropertyAccessor(name, param, read: { n, p in Int(readInt(n, p)) },
                 write: { n, p, v in alSourcei(n, p, ALint(v)) },
                 validate: { v, name in v >= 0 && v <= Int(Int32.max) ? nil : "\(name) must be in 0...\(Int32.max), got \(v)" },
                 offsetUnit: unit)
    }
}

extension PropertyAccessor where Value == SIMD3<Float> {
    fileprivate static func vector(_ name: String, _ param: Int32) -> PropertyAccessor<SIMD3<Float>> {
        PropertyAccessor(name, param, read: readVector,
                 write: { n, p, v in alSource3f(n, p, v.x, v.y, v.z) },
                 validate: ALValue.finiteVector,
                 vectorWriter: alSourcefv)
    }
}

extension PropertyAccessor where Value == Bool {
    fileprivate static func flag(_ name: String, _ param: Int32, extension ext: String? = nil) -> PropertyAccessor<Bool> {
        PropertyAccessor(name, param, extension: ext, read: { n, p in readInt(n, p) != 0 },
                 write: { n, p, v in alSourcei(n, p, v ? AL_TRUE : AL_FALSE) })
    }
}
