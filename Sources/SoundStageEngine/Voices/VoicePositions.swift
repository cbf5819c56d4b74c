/// The voice pool's positions, lent to the body of ``AudioEngine/moveVoices(_:)`` for a game
/// to move its voices in place: each ``move(_:to:)`` writes the pool's own position of the
/// voice, with no array of moves built first and read again.
///
/// A voice that has ended, a handle of another engine, and a non-finite position are
/// skipped (the move returns false), as ``AudioEngine/setPositions(_:)`` skips them. The
/// positions are the pool's only while the body runs: the type cannot be copied out of it, and
/// a body that swaps them with another engine's (from a `moveVoices` nested in it) traps.
public struct VoicePositions: ~Copyable {
    /// Slots in the table.
    @usableFromInline let count: Int
    @usableFromInline let generation: UnsafeBufferPointer<UInt32>
    @usableFromInline let flags: UnsafeMutableBufferPointer<VoiceFlags>
    @usableFromInline let position: PointLane
    /// The pool whose voices these are.
    @usableFromInline let pool: ObjectIdentifier

    init(count: Int, generation: UnsafeBufferPointer<UInt32>, flags: UnsafeMutableBufferPointer<VoiceFlags>,
         position: PointLane, pool: ObjectIdentifier) {
        precondition(count <= generation.count && count <= flags.count && count <= position.count)
        self.count = count
        self.generation = generation
        self.flags = flags
        self.position = position
        self.pool = pool
    }

    /// The slot of `voice` in this pool while it plays, else nil.
    @inlinable @inline(__always)
    func slot(_ voice: Voice) -> Int? {
        let i = Int(voice.index)
        guard i < count, generation[i] == voice.generation, ObjectIdentifier(voice.pool) == pool,
              flags[i].contains(.live) else { return nil }
        return i
    }

    /// Where `voice` is, in its space (the world's, or the listener's for a voice played
    /// with ``VoiceOptions/isRelative``); nil once it has ended, or while it plays
    /// unpositioned, at the listener.
    @inlinable @inline(__always)
    public func position(of voice: Voice) -> SIMD3<Float>? {
        guard let i = slot(voice), flags[i].contains(.positioned) else { return nil }
        return position.point(i)
    }

    /// Moves `voice` to `point`, in its space (the world's, or the listener's for a voice
    /// played with ``VoiceOptions/isRelative``), as ``Voice/position`` does.
    ///
    /// - Returns: false, and nothing moved, for a voice that has ended, a voice of another
    ///   engine, or a non-finite point.
    @inlinable @inline(__always) @discardableResult
    public func move(_ voice: Voice, to point: SIMD3<Float>) -> Bool {
        guard Self.isFinite(SIMD4(point, 0)), let i = slot(voice) else { return false }
        position.write(i, point)
        marked(i)
        return true
    }

    /// Moves `voice` by `step` from where it is.
    ///
    /// - Returns: false, and nothing moved, for a voice that has ended or plays unpositioned
    ///   (at the listener), a voice of another engine, or a move to a non-finite point.
    @inlinable @inline(__always) @discardableResult
    public func move(_ voice: Voice, by step: SIMD3<Float>) -> Bool {
        guard let i = slot(voice), flags[i].contains(.positioned) else { return false }
        // x and y in one vector, z in another (``PointLane/parts(_:)``): read as they were
        // written, whatever order the game moves its voices in.
        let (xy, z) = position.parts(i)
        let movedXY = xy + SIMD4(step.x, step.y, 0, 0), movedZ = z + SIMD4(step.z, 0, 0, 0)
        // As `isFinite`, on both at once: lane 0 of the sum is NaN where x or z is not finite,
        // lane 1 where y is.
        guard all((movedXY - movedXY) + (movedZ - movedZ) .== SIMD4<Float>.zero) else { return false }
        position.write(i, xy: movedXY, z: movedZ)
        marked(i)
        return true
    }

    /// Whether every lane of `p` is finite: `x - x` is 0 for a finite `x` and NaN for an
    /// infinite or NaN one (one vector compare, not three tests).
    @inlinable @inline(__always)
    static func isFinite(_ p: SIMD4<Float>) -> Bool {
        all(p - p .== SIMD4<Float>.zero)
    }

    /// Marks slot `i` moved: its rank is worked out again at the next tick (and a real voice's
    /// source follows when the body returns: the pool writes the placement of each real voice
    /// to be ranked again). Nothing of `self` changes, so a loop of moves keeps the lanes'
    /// addresses in registers.
    @inlinable @inline(__always)
    func marked(_ i: Int) {
        flags[i].formUnion([.positioned, .needsRank])
    }
}
