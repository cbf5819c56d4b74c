import SoundStageCore
import SoundStageSession

extension Bus {
    /// Runs `settings` as the bus's effect: every voice and player on the bus, or on a bus
    /// under it without an effect of its own, sends to it through its first auxiliary send
    /// (a room reverb on the effects bus, an echo on dialog). `level` is the effect's return,
    /// 0...1. nil removes it. The effect follows the engine to another device.
    ///
    /// - Throws: what making the effect and its slot throws (a parameter out of range, no
    ///   EFX, no slot left), ``SoundStageError/Code-swift.struct/invalidArgument`` for a level
    ///   outside 0...1, ``SoundStageError/Code-swift.struct/invalidState`` once the engine is gone.
    public func setEffect(_ settings: EffectSettings?, level: Float = 1) throws {
        guard level.isFinite, (0...1).contains(level) else {
            throw pool.failure(.invalidArgument, of: "Bus", "setEffect(_:level: \(level))", "\(self): the level must be in 0...1")
        }
        guard let engine = pool.state.withLockedValue({ $0.engine }) else {
            throw pool.failure(.invalidState, of: "Bus", "setEffect(_:level:)", "\(self): its engine is gone")
        }
        try pool.setEffect(self, settings, level: level, context: engine.context)
    }

    /// The bus's own effect, nil for none.
    public var effect: EffectSettings? { pool.readBus(self) { $0.effect?.settings } }

    /// Whether the bus's sounds send to the engine's reverb zones
    /// (``AudioEngine/addReverbZone(_:)``), if every bus above it lets them too. On for every
    /// bus but music and UI, whose sounds are not in the world. Heard at once.
    public var sendsToReverbZones: Bool {
        get { pool.readBus(self) { $0.sendsToReverbZones } }
        nonmutating set { pool.setSendsToZones(self, newValue) }
    }
}
