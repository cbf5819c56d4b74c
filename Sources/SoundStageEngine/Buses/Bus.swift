import SoundStageCore
import SoundStageSession

/// A mixing bus: a group of voices and players with one volume, mute, pause and fade, its
/// own level meter, and a place in a tree whose gains multiply down to every sound.
///
/// Every engine has a master bus with four children, `music`, `effects`, `ui` and `dialog`
/// (``AudioEngine/masterBus`` and its siblings), and the game adds its own with
/// ``AudioEngine/makeBus(named:parent:)``. Voices play on the effects bus unless told
/// otherwise, players on the music bus.
/// A bus is a small handle; two handles to the same bus are equal.
public struct Bus: Sendable, Hashable, CustomStringConvertible {
    let pool: VoicePool
    let index: Int32

    /// The standard buses, in table order: the master, then its four children.
    static let standard: [(name: String, parent: Int32)] = [("master", -1), ("music", 0), ("effects", 0), ("ui", 0), ("dialog", 0)]
    /// The standard buses whose sounds do not send to reverb zones: they are not in the world.
    static let outsideZones: Set<String> = ["music", "ui"]
    /// The music bus's index.
    static let musicIndex: Int32 = 1
    /// The effects bus's index.
    static let effectsIndex: Int32 = 2

    public static func == (a: Bus, b: Bus) -> Bool { a.pool === b.pool && a.index == b.index }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(pool))
        hasher.combine(index)
    }

    /// The bus's name, unique in its engine.
    public var name: String { pool.readBus(self) { $0.name } }
    /// For example `bus music`.
    public var description: String { "bus \(name)" }
    /// The bus above it; nil for the master.
    public var parent: Bus? {
        let p = pool.readBus(self) { $0.parent }
        return p < 0 ? nil : Bus(pool: pool, index: p)
    }

    /// The bus's own volume, 0...1 (clamped; NaN ignored). A fade in progress is cancelled.
    public var volume: Float {
        get { pool.readBus(self) { $0.volume } }
        nonmutating set { if !newValue.isNaN { try? setVolume(Self.volumeRange.clamping(newValue)) } }
    }

    /// The allowed volumes.
    public static let volumeRange: ClosedRange<Float> = 0...1

    /// Sets ``volume``, cancelling a fade in progress.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` outside 0...1.
    public func setVolume(_ volume: Float) throws {
        guard volume.isFinite, Self.volumeRange.contains(volume) else {
            throw pool.failure(.invalidArgument, of: "Bus", "setVolume(\(volume))", "\(self): the volume must be in \(Self.volumeRange)")
        }
        pool.changeBus(self) {
            $0.volume = volume
            $0.fade = nil
        }
    }

    /// Silences the bus and everything under it, at once. Its voices go on: they give their
    /// sources up to audible voices and keep time, whatever their ``VoiceOptions/whenVirtual``
    /// (a muted voice is not culled), and come back in phase when unmuted.
    public var isMuted: Bool {
        get { pool.readBus(self) { $0.isMuted } }
        nonmutating set { pool.changeBus(self) { $0.isMuted = newValue } }
    }

    /// Whether the bus itself is paused (a bus above it may pause it too: ``isPausedInTree``).
    public var isPaused: Bool { pool.readBus(self) { $0.isPaused } }
    /// Whether the bus or one above it is paused.
    public var isPausedInTree: Bool { pool.readBus(self) { $0.isPausedInTree } }

    /// Pauses every voice and player under the bus: their playheads stop where they are.
    public func pause() { pool.changeBus(self) { $0.isPaused = true } }

    /// Resumes what ``pause()`` paused, from where it stopped.
    public func resume() { pool.changeBus(self) { $0.isPaused = false } }

    /// Fades the bus's volume to `target` over `duration` seconds of engine time.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a target outside
    ///   0...1 or a negative or non-finite duration.
    public func fade(to target: Float, duration: Double, curve: FadeCurve = .linear) throws {
        guard target.isFinite, Self.volumeRange.contains(target), duration.isFinite, duration >= 0 else {
            throw pool.failure(.invalidArgument, of: "Bus", "fade(to: \(target), duration: \(duration))",
                               "\(self): the target must be in \(Self.volumeRange) and the duration finite and not negative")
        }
        pool.startFade(self, to: target, duration: duration, curve: curve)
    }

    /// The gain the bus gives its sounds now: its volume times every bus above it, ducking
    /// and mutes included (0 when muted).
    public var gain: Float { pool.readBus(self) { $0.gain } }

    /// The ducking applied to the bus now, in dB (0 or less).
    public var duckingDB: Float { pool.readBus(self) { $0.duckDB } }

    /// Whether the service tick measures the bus's level (``averagePower``, ``peakPower``);
    /// off by default. Switching it off reads -160 dB again.
    public var isMeteringEnabled: Bool {
        get { pool.readBus(self) { $0.isMetering } }
        nonmutating set {
            pool.state.withLockedValue { s in
                s.tree.buses[Int(index)].isMetering = newValue
                if !newValue { s.tree.buses[Int(index)].meter = BusMeter() }
            }
        }
    }

    /// The RMS level in dBFS (-160 and up) of what the bus and the buses under it put out
    /// over the last service tick: its real voices (volume, bus gains, distance and cone)
    /// and its players (volume and bus gains), as power summed across the output channels
    /// as OpenAL's panner would keep it. Measured against renders: within 0.5 dB for sounds
    /// off to the side; about 1.5 dB high for a sound straight ahead on stereo output, where
    /// OpenAL Soft 1.19's panner puts less power into the mix. Virtual voices are not heard
    /// and not counted. -160 while ``isMeteringEnabled`` is off.
    public var averagePower: Float { pool.readBus(self) { $0.meter.average } }

    /// The peak level in dBFS over the last tick, measured as ``averagePower``.
    public var peakPower: Float { pool.readBus(self) { $0.meter.peak } }
}
