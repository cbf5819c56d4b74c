/// Picks the `capacity` highest ranks out of many in one pass: a min-heap of the best so
/// far, whose smallest is thrown out when a better one comes. Ties go to the lower slot.
struct TopRanks {
    private(set) var ranks: [UInt64] = []
    private(set) var slots: [Int32] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        ranks.reserveCapacity(capacity)
        slots.reserveCapacity(capacity)
    }

    /// Whether (a, i) ranks below (b, j).
    @inline(__always)
    private static func below(_ a: UInt64, _ i: Int32, _ b: UInt64, _ j: Int32) -> Bool {
        a < b || (a == b && i > j)
    }

    @inline(__always)
    mutating func offer(_ rank: UInt64, slot: Int32) {
        guard capacity > 0 else { return }
        if ranks.count < capacity {
            ranks.append(rank)
            slots.append(slot)
            var c = ranks.count - 1
            while c > 0 {
                let p = (c - 1) / 2
                guard Self.below(ranks[c], slots[c], ranks[p], slots[p]) else { break }
                ranks.swapAt(c, p)
                slots.swapAt(c, p)
                c = p
            }
            return
        }
        guard Self.below(ranks[0], slots[0], rank, slot) else { return }
        ranks[0] = rank
        slots[0] = slot
        var p = 0
        let n = ranks.count
        while true {
            let l = 2 * p + 1, r = l + 1
            var m = p
            if l < n, Self.below(ranks[l], slots[l], ranks[m], slots[m]) { m = l }
            if r < n, Self.below(ranks[r], slots[r], ranks[m], slots[m]) { m = r }
            if m == p { break }
            ranks.swapAt(p, m)
            slots.swapAt(p, m)
            p = m
        }
    }
}
