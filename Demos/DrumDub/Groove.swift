/// A groove: what the player banged while recording, played back as a loop. Times are
/// seconds on the engine's clock; the loop is as long as the recording was.
struct Groove {
    /// A hit: when, from the start of the recording, and which drum.
    struct Hit: Equatable {
        let offset: Double
        let drum: Int
    }

    enum State: Equatable {
        case idle
        case recording(start: Double, hits: [Hit])
        /// Looping `loop` since `start`; `played` hits of it have been played so far.
        case looping(start: Double, played: Int)
    }

    private(set) var state = State.idle
    /// The last groove recorded, and its length in seconds.
    private(set) var hits: [Hit] = []
    private(set) var length = 0.0

    /// Loops shorter than this are stretched to it (a single hit still makes a loop).
    static let shortestLoop = 0.5

    var isRecording: Bool { if case .recording = state { return true } else { return false } }
    var isLooping: Bool { if case .looping = state { return true } else { return false } }

    /// Starts recording at `now`, or stops it and starts looping what was recorded (nothing
    /// recorded: back to idle).
    mutating func toggleRecording(at now: Double) {
        if case .recording(let start, let recorded) = state {
            guard !recorded.isEmpty else { state = .idle; return }
            hits = recorded
            length = max(now - start, Self.shortestLoop, (recorded.last?.offset ?? 0) + 0.05)
            state = .looping(start: now, played: 0)
        } else {
            state = .recording(start: now, hits: [])
        }
    }

    /// Loops the last recorded groove from `now`, or stops the loop. While recording, it ends
    /// the recording (keeping what was banged) and loops that.
    mutating func toggleLoop(at now: Double) {
        switch state {
        case .idle: if !hits.isEmpty { state = .looping(start: now, played: 0) }
        case .looping: state = .idle
        case .recording: toggleRecording(at: now)
        }
    }

    /// Notes a bang at `now` while recording.
    mutating func record(drum: Int, at now: Double) {
        guard case .recording(let start, var recorded) = state else { return }
        recorded.append(Hit(offset: now - start, drum: drum))
        state = .recording(start: start, hits: recorded)
    }

    /// Stops looping or recording (an interruption, a lost device); keeps the groove.
    mutating func stop(at now: Double) {
        if case .recording(let start, let recorded) = state, !recorded.isEmpty {
            hits = recorded
            length = max(now - start, Self.shortestLoop, recorded.last!.offset + 0.05)
        }
        state = .idle
    }

    /// The engine time of the next hit the loop plays, nil when not looping.
    var nextDue: Double? {
        guard case .looping(let start, let played) = state, !hits.isEmpty else { return nil }
        let cycle = played / hits.count, index = played % hits.count
        return start + Double(cycle) * length + hits[index].offset
    }

    /// Takes the hits due by `now`, in order.
    mutating func due(by now: Double) -> [Int] {
        var drums: [Int] = []
        while let time = nextDue, time <= now, case .looping(let start, let played) = state {
            drums.append(hits[played % hits.count].drum)
            state = .looping(start: start, played: played + 1)
        }
        return drums
    }
}
