import SoundStageCore
import SoundStageSession

extension Player {
    /// The frames ``updateMeters()`` measures, ending at the playhead.
    static let meterWindowFrames = 1_024

    /// Whether ``updateMeters()`` measures; off by default.
    public var isMeteringEnabled: Bool {
        get { state.withLockedValue { $0.meteringEnabled } }
        set {
            state.withLockedValue { s in
                s.meteringEnabled = newValue
                if !newValue { s.meters = [] }
            }
        }
    }

    /// Measures the player's own samples in the 1024 frames played before the playhead,
    /// with its volume applied, for ``averagePower(forChannel:)`` and ``peakPower(forChannel:)``.
    public func updateMeters() {
        let (enabled, window, gain) = keepingEngine { OpenAL.lock.withLock { held in
            let busGain = busGain(held)
            return state.withLockedValue(held) { s -> (Bool, [Float], Float) in
                guard s.meteringEnabled, s.status == .playing, let source = s.source, let feed = s.feed else {
                    return (s.meteringEnabled, [], 0)
                }
                let window = feed.samples(endingAtQueueOffset: queueOffset(s, source), soundFrame: currentFrame(s), frames: Self.meterWindowFrames)
                return (true, window, s.settings.volume * busGain)
            }
        } }
        guard enabled else { return }
        let result = LevelMeter.levels(window, channels: sound.channelCount, gain: gain).map {
            (average: Float(min(0, $0.rms)), peak: Float(min(0, $0.peak)))
        }
        state.withLockedValue { $0.meters = result }
    }

    /// What the player put out over the last `seconds` (for its bus's meter): nil unless it
    /// plays.
    func meterWindow(_ held: borrowing LockHeld, seconds: Double) -> VoicePool.MeterWindow? {
        let busGain = busGain(held)
        return state.withLockedValue(held) { s in
            guard s.status == .playing, let source = s.source, let feed = s.feed else { return nil }
            let frames = max(1, Int(seconds * Double(sound.sampleRate) * Double(s.settings.rate)))
            let window = feed.samples(endingAtQueueOffset: queueOffset(s, source), soundFrame: currentFrame(s), frames: frames)
            return VoicePool.MeterWindow(bus: s.settings.bus, samples: window, channels: sound.channelCount, gain: s.settings.volume * busGain)
        }
    }

    /// The average (RMS) power of `channel` in dBFS, -160...0, at the last ``updateMeters()``.
    public func averagePower(forChannel channel: Int) -> Float {
        state.withLockedValue { $0.meters.indices.contains(channel) ? $0.meters[channel].average : Float(LevelMeter.floor) }
    }

    /// The peak power of `channel` in dBFS, -160...0, at the last ``updateMeters()``.
    public func peakPower(forChannel channel: Int) -> Float {
        state.withLockedValue { $0.meters.indices.contains(channel) ? $0.meters[channel].peak : Float(LevelMeter.floor) }
    }
}
