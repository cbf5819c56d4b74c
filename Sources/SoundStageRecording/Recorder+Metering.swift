import Foundation
import SoundStageCore
import SoundStageSession

extension Recorder {
    /// Whether the recorder measures levels (``updateMeters()``); off by default.
    public var isMeteringEnabled: Bool {
        get { state.withLockedValue { $0.isMetering } }
        set {
            state.withLockedValue { s in
                s.isMetering = newValue
                s.resetMeters(channels: settings.channels, clearReadings: true)
            }
        }
    }

    /// Takes the levels of what was recorded since the last call: the values
    /// ``averagePower(forChannel:)`` and ``peakPower(forChannel:)`` read from now on. With
    /// nothing recorded since, the readings stay as they were.
    public func updateMeters() {
        state.withLockedValue { s in
            guard s.isMetering, s.meterFrames > 0 else { return }
            let frames = Double(s.meterFrames)
            s.averageDB = s.meterSums.map { Float(LevelMeter.dB(($0 / frames).squareRoot())) }
            s.peakDB = s.meterPeaks.map { Float(LevelMeter.dB(Double($0))) }
            s.resetMeters(channels: settings.channels, clearReadings: false)
        }
    }

    /// The RMS level of `channel` in dBFS at the last ``updateMeters()`` (-160 for silence,
    /// with metering off, or for a channel the recording lacks). A full-scale sine reads -3.01.
    public func averagePower(forChannel channel: Int) -> Float {
        state.withLockedValue { s in s.averageDB.indices.contains(channel) ? s.averageDB[channel] : Float(LevelMeter.floor) }
    }

    /// The peak level of `channel` in dBFS at the last ``updateMeters()``.
    public func peakPower(forChannel channel: Int) -> Float {
        state.withLockedValue { s in s.peakDB.indices.contains(channel) ? s.peakDB[channel] : Float(LevelMeter.floor) }
    }
}

extension RecorderState {
    /// Adds interleaved `samples` of `channels` to the meters.
    mutating func accumulate(_ samples: ArraySlice<Float>, channels: Int) {
        if meterSums.count != channels { resetMeters(channels: channels, clearReadings: false) }
        var i = samples.startIndex
        while i + channels <= samples.endIndex {
            for c in 0..<channels {
                let v = samples[i + c]
                meterPeaks[c] = max(meterPeaks[c], abs(v))
                meterSums[c] += Double(v) * Double(v)
            }
            i += channels
        }
        meterFrames += samples.count / channels
    }

    /// Empties the accumulators (and the readings, when asked).
    mutating func resetMeters(channels: Int, clearReadings: Bool) {
        meterPeaks = [Float](repeating: 0, count: channels)
        meterSums = [Double](repeating: 0, count: channels)
        meterFrames = 0
        if clearReadings {
            averageDB = [Float](repeating: Float(LevelMeter.floor), count: channels)
            peakDB = averageDB
        }
    }
}
