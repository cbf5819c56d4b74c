import SoundStageCore
import SoundStageSession

// Bus meters: what the real voices and the players of a bus put out over the last tick,
// gains and distance included, measured as power summed across the output channels (a
// mono voice panned anywhere puts the same power into the mix).
extension VoicePool {
    /// What one player puts out over the last tick: its samples, their channel count and
    /// the gain they are heard at.
    struct MeterWindow {
        var bus: Int32
        var samples: [Float]
        var channels: Int
        var gain: Float
    }

    /// Whether any bus meters (the tick gathers windows only then).
    func isMetering(_ held: borrowing LockHeld) -> Bool {
        state.withLockedValue(held) { s in s.tree.buses.contains { $0.isMetering } }
    }

    /// Reads every metering bus's level from its real voices and the `players`' windows,
    /// over `seconds` of sound before now.
    func meter(_ held: borrowing LockHeld, players: [MeterWindow], seconds: Double) {
        state.withLockedValue(held) { s in
            guard s.tree.buses.contains(where: { $0.isMetering }) else { return }
            var windows = players
            for real in s.reals {
                let slot = s.slots.row(Int(real.slot))
                guard let sound = s.sounds[Int(s.slots.details[Int(real.slot)].sound)].playing else { continue }
                // A looping voice is not refilled by the tick; this keeps its wrap count for the window.
                if real.feed.isExhausted { _ = try? real.feed.refill(real.source) }
                let offset = real.source.get(.sampleOffset)
                let frames = max(1, Int(seconds * Double(sound.sampleRate) * Double(slot.pitch)))
                let samples = real.feed.samples(endingAtQueueOffset: offset, soundFrame: real.feed.frame(atQueueOffset: offset), frames: frames)
                windows.append(MeterWindow(bus: slot.bus, samples: samples, channels: sound.channelCount, gain: slot.audibility))
            }
            // Per metering bus, the power of each frame, summed over the windows under it.
            var power: [Int: [Double]] = [:]
            for window in windows where window.channels > 0 {
                let frames = window.samples.count / window.channels
                var b = Int(window.bus)
                while b >= 0 {
                    if s.tree.buses[b].isMetering {
                        var sums = power[b] ?? []
                        if sums.count < frames { sums += [Double](repeating: 0, count: frames - sums.count) }
                        let g = Double(window.gain)
                        for f in 0..<frames {
                            var p = 0.0
                            for c in 0..<window.channels {
                                let v = Double(window.samples[f * window.channels + c]) * g
                                p += v * v
                            }
                            sums[f] += p
                        }
                        power[b] = sums
                    }
                    b = Int(s.tree.buses[b].parent)
                }
            }
            for b in s.tree.buses.indices where s.tree.buses[b].isMetering {
                let sums = power[b] ?? []
                let mean = sums.isEmpty ? 0 : sums.reduce(0, +) / Double(sums.count)
                s.tree.buses[b].meter = BusMeter(average: Float(LevelMeter.dB(mean.squareRoot())),
                                            peak: Float(LevelMeter.dB((sums.max() ?? 0).squareRoot())))
            }
        }
    }
}
