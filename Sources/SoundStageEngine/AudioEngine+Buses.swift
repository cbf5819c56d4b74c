import SoundStageCore
import SoundStageSession

extension AudioEngine {
    /// The bus every other bus is under.
    public var masterBus: Bus { Bus(pool: voices, index: 0) }

    /// The handle of bus `index` of this engine.
    func bus(at index: Int32) -> Bus { Bus(pool: voices, index: index) }

    /// Whether `bus` is one of this engine's.
    func owns(_ bus: Bus) -> Bool { bus.pool === voices }
    /// Music: players play here unless told otherwise.
    public var musicBus: Bus { Bus(pool: voices, index: 1) }
    /// Effects: voices play here unless told otherwise; muting
    /// it is ``effectsMuted``.
    public var effectsBus: Bus { Bus(pool: voices, index: 2) }
    /// Interface sounds.
    public var uiBus: Bus { Bus(pool: voices, index: 3) }
    /// Speech (the usual trigger of ducking).
    public var dialogBus: Bus { Bus(pool: voices, index: 4) }

    /// Every bus of the engine, the master first; a parent always comes before its children.
    public var buses: [Bus] { voices.allBuses }

    /// Makes a bus of the game's own under `parent` (the master by default).
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for an empty name, a
    ///   name in use, or a parent of another engine.
    public func makeBus(named name: String, parent: Bus? = nil) throws -> Bus {
        let parent = parent ?? masterBus
        guard parent.pool === voices else {
            throw failure(.invalidArgument, "makeBus(named: \(name))", "\(parent) belongs to another engine")
        }
        return try voices.makeBus(named: name, parent: parent)
    }

    /// The bus named `name`, if the engine has one.
    public func bus(named name: String) -> Bus? { voices.bus(named: name) }

    /// Adds a ducking rule (see ``DuckingRule``), driven by the service loop.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for buses of another
    ///   engine, the same bus twice, or depths and times out of range.
    public func addDucking(_ rule: DuckingRule) throws { try voices.addDucking(rule) }

    /// Removes a ducking rule; its target comes back at once.
    public func removeDucking(_ rule: DuckingRule) { voices.removeDucking(rule) }
}
