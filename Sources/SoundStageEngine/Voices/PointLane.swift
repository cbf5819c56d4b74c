/// The voice table's positions as the tick and the moves go through them: three floats a voice,
/// one voice after another (12 bytes a voice, where a `SIMD4` takes 16: a hundred thousand
/// voices' positions are 1.2 MB rather than 1.6, which a move reads and writes and the tick
/// reads again).
///
/// A point is read as it is written, as 8 bytes (x, y) and 4 (z), never as 16: a read that
/// also took in the next voice's x would overlap that voice's store when a game moves its
/// voices from the last slot to the first, and a load the store buffer cannot forward waits
/// for the store to reach the cache (the tick of 100,000 voices moved that way took 3.7-4.8
/// times the C loop's time in the runs where slot order took 1.3-1.8).
@usableFromInline
struct PointLane {
    /// The first voice's x.
    @usableFromInline let base: UnsafeMutablePointer<Float>
    /// The voices it holds (its floats are three times as many).
    @usableFromInline let count: Int

    /// The lane of `floats`, three a voice.
    init(_ floats: UnsafeMutableBufferPointer<Float>) {
        // An empty lane's address is never dereferenced.
        base = floats.baseAddress ?? UnsafeMutablePointer(bitPattern: MemoryLayout<Float>.alignment).unsafelyUnwrapped
        count = floats.count / 3
    }

    /// Voice `i`'s point as two vectors: x and y in lanes 0 and 1 of the first, z in lane 0 of
    /// the second, their other lanes 0.
    @inlinable @inline(__always)
    func parts(_ i: Int) -> (xy: SIMD4<Float>, z: SIMD4<Float>) {
        let at = UnsafeRawPointer(base + 3 &* i)
        return (SIMD4(lowHalf: at.loadUnaligned(as: SIMD2<Float>.self), highHalf: .zero),
                SIMD4(at.load(fromByteOffset: 8, as: Float.self), 0, 0, 0))
    }

    /// Voice `i`'s point.
    @inlinable @inline(__always)
    func point(_ i: Int) -> SIMD3<Float> {
        let (xy, z) = parts(i)
        return SIMD3(xy.x, xy.y, z.x)
    }

    /// Writes lanes 0 and 1 of `xy` and lane 0 of `z` as voice `i`'s point.
    @inlinable @inline(__always)
    func write(_ i: Int, xy: SIMD4<Float>, z: SIMD4<Float>) {
        let at = UnsafeMutableRawPointer(base + 3 &* i)
        at.storeBytes(of: xy.lowHalf, as: SIMD2<Float>.self)
        at.storeBytes(of: z.x, toByteOffset: 8, as: Float.self)
    }

    /// Writes `p` as voice `i`'s point.
    @inlinable @inline(__always)
    func write(_ i: Int, _ p: SIMD3<Float>) {
        write(i, xy: SIMD4(p.x, p.y, 0, 0), z: SIMD4(p.z, 0, 0, 0))
    }

    /// The points of voices `i` to `i + 3` (`i` a multiple of four) as columns: each lane one
    /// voice. Twelve floats, read as three loads of four (the tick reads them long after any
    /// move's store).
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
