import Synchronization

/// Which device took over from which: an engine that moves to another device records it, so
/// a sound whose buffer is on the old device may follow it to the new one (uploaded again
/// from its kept bytes), while a sound of another engine's device is still refused.
package enum DeviceSuccession {
    private struct Step {
        weak var from: AudioDevice?
        weak var to: AudioDevice?
    }

    private static let steps = LockedBox<[Step]>([])

    /// Records that `new` took over from `old`.
    package static func record(from old: AudioDevice, to new: AudioDevice) {
        steps.withLock { steps in
            steps.removeAll { $0.from == nil || $0.to == nil }
            steps.append(Step(from: old, to: new))
        }
    }

    /// Whether `new` took over from `old`, directly or through other moves.
    package static func leads(from old: AudioDevice, to new: AudioDevice) -> Bool {
        steps.withLock { steps in
            var current = old
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(old)]
            while let step = steps.last(where: { $0.from === current }), let next = step.to {
                if next === new { return true }
                guard seen.insert(ObjectIdentifier(next)).inserted else { return false }
                current = next
            }
            return false
        }
    }
}
