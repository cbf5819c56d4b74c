import SoundStageCore

/// The OpenAL objects a source's walls and effects use, as the pool found (or made) them for
/// a sound's ``SourceSettings``: the occlusion filter on the direct path, and each auxiliary
/// send's slot and filter (the first to the bus's effect, the next ones to the reverb zones).
struct SourceSends {
    var directFilter: AudioFilter?
    var sends: [(index: Int, slot: EffectSlot?, filter: AudioFilter?)] = []

    /// None: no filter, and each of a source's `sendCount` sends sending nowhere.
    static func cleared(sendCount: Int) -> SourceSends {
        SourceSends(directFilter: nil, sends: (0..<sendCount).map { ($0, nil, nil) })
    }

    /// Sets them on `source`; a send already set as asked is not written again.
    func write(to source: AudioSource) throws {
        try source.setDirectFilter(directFilter)
        for send in sends { try source.setSend(send.index, to: send.slot, filter: send.filter) }
    }
}
