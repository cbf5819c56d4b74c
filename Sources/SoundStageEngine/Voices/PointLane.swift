/// The voice table's positions as the tick and the moves go through them: three floats a voice,
/// one voice after another (12 bytes a voice, where a `SIMD4` takes 16: a hundred thousand
/// voices' positions are 1.2 MB rather than 1.6, which a move reads and writes and the tick
/// reads again), and one float more after the last. A point is read as four lanes at once, the
/// fourth being what follows it (the next voice's x, or that spare float, always finite); it is
/// written as three, so that a move never writes its neighbour, and, moves made in slot order,
/// a move's read of the next voice does not overlap the store before it.
@usableFromInline
struct PointLane {
    /// The first voice's x.
    @usableFromInline let base: UnsafeMutablePointer<Float>
    /// The voices it holds (its floats are three times as many, and one).
    @usableFromInline let count: Int

    /// The lane of `floats`, which holds `3 count + 1` floats.
    init(_ floats: UnsafeMutableBufferPointer<Float>) {
        precondition(floats.count >= 1, "a point lane ends with a spare float")
        base = floats.baseAddress.unsafelyUnwrapped
        count = (floats.count - 1) / 3
    }

    /// Voice `i`'s point in lanes 0 to 2, and the float after it in lane 3.
    @inlinable @inline(__always)
    func four(_ i: Int) -> SIMD4<Float> {
        UnsafeRawPointer(base + 3 &* i).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Voice `i`'s point.
    @inlinable @inline(__always)
    func point(_ i: Int) -> SIMD3<Float> {
        let p = four(i)
        return SIMD3(p.x, p.y, p.z)
    }

    /// Writes lanes 0 to 2 of `p` as voice `i`'s point (lane 3 is not written).
    @inlinable @inline(__always)
    func write(_ i: Int, _ p: SIMD4<Float>) {
        let at = UnsafeMutableRawPointer(base + 3 &* i)
        at.storeBytes(of: SIMD2(p.x, p.y), as: SIMD2<Float>.self)
        at.storeBytes(of: p.z, toByteOffset: 8, as: Float.self)
    }

    /// The points of voices `i` to `i + 3` (`i` a multiple of four) as columns: each lane one
    /// voice. Twelve floats, read as three loads of four.
    @inline(__always)
    func columns(from i: Int) -> (x: SIMD4<Float>, y: SIMD4<Float>, z: SIMD4<Float>) {
        let at = UnsafeRawPointer(base + 3 &* i)
        let a = at.loadUnaligned(as: SIMD4<Float>.self)
        let b = at.loadUnaligned(fromByteOffset: 16, as: SIMD4<Float>.self)
        let c = at.loadUnaligned(fromByteOffset: 32, as: SIMD4<Float>.self)
        // Voice 0 is a0 a1 a2, voice 1 a3 b0 b1, voice 2 b2 b3 c0, voice 3 c1 c2 c3.
        return (SIMD4(a[0], a[3], b[2], c[1]), SIMD4(a[1], b[0], b[3], c[2]), SIMD4(a[2], b[1], c[0], c[3]))
    }
}
