import SoundStageCore
import SoundStageSession

/// Picks the `capacity` highest ranks out of many in one pass: a min-heap of the best so
/// far, whose smallest is thrown out when a better one comes. Ties go to the lower slot.
/// Its storage is allocated once and used in place (no copy-on-write checks in the loop
/// every voice goes through).
struct TopRanks: ~Copyable {
    private let ranks: UnsafeMutablePointer<UInt64>
    private let indices: UnsafeMutablePointer<Int32>
    private var count = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        ranks = .allocate(capacity: max(1, capacity))
        indices = .allocate(capacity: max(1, capacity))
    }

    deinit {
        ranks.deallocate()
        indices.deallocate()
    }

    /// The slots kept, in no particular order.
    var slots: [Int32] { Array(UnsafeBufferPointer(start: indices, count: count)) }

    /// Whether entry `a` ranks below entry `b`.
    @inline(__always)
    private func below(_ a: Int, _ b: Int) -> Bool {
        ranks[a] < ranks[b] || (ranks[a] == ranks[b] && indices[a] > indices[b])
    }

    @inline(__always)
    private func swap(_ a: Int, _ b: Int) {
        let r = ranks[a], i = indices[a]
        ranks[a] = ranks[b]
        indices[a] = indices[b]
        ranks[b] = r
        indices[b] = i
    }

    /// The smallest rank kept once every place is taken (nil before): a rank below it can
    /// no longer get in.
    private(set) var least: UInt64?

    /// Whether the entries are a min-heap: they are made one at the first offer past
    /// capacity, not when the last place is taken, so a tick whose voices all fit (a full
    /// pool of real voices) never orders them.
    private var isHeap = false

    @inline(__always)
    mutating func offer(_ rank: UInt64, slot: Int32) {
        guard capacity > 0 else { return }
        if count < capacity {
            ranks[count] = rank
            indices[count] = slot
            count += 1
            // Full: the least is known from now on (until then, one append each).
            if count == capacity { least = UnsafeBufferPointer(start: ranks, count: count).min() }
            return
        }
        if !isHeap {
            for p in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(p) }
            isHeap = true
        }
        // Full: the newcomer must beat the smallest kept.
        guard ranks[0] < rank || (ranks[0] == rank && indices[0] > slot) else { return }
        ranks[0] = rank
        indices[0] = slot
        siftDown(0)
        least = ranks[0]
    }

    /// Moves entry `p` down to its place in the min-heap.
    private func siftDown(_ start: Int) {
        var p = start
        while true {
            let l = 2 * p + 1, r = l + 1
            var m = p
            if l < count, below(l, m) { m = l }
            if r < count, below(r, m) { m = r }
            if m == p { break }
            swap(p, m)
            p = m
        }
    }
}
