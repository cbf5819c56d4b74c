import Foundation
import SoundStageCore
import SoundStageSession

extension Player {
    /// Gain, 0 (silent) to 1 (as recorded). Values outside 0...1 are clamped.
    public var volume: Float {
        get { settings.volume }
        set { setClamped(newValue, in: Self.volumeRange, setVolume) }
    }

    /// Sets ``volume``, throwing for a value outside 0...1.
    public func setVolume(_ value: Float) throws { try setSetting(.volume, \.volume, value, "setVolume", Self.volumeRange, writing: .gain) }

    /// Left-right placement of a sound that is not positioned: -1 left, 0 centre, 1 right
    /// (clamped). A mono sound is placed at that angle in front of the listener (constant
    /// power); a stereo sound has both its channels turned that way (`AL_EXT_STEREO_ANGLES`;
    /// without it, pan does not move stereo sounds).
    public var pan: Float { get { settings.pan } set { setClamped(newValue, in: Self.panRange, setPan) } }

    /// Sets ``pan``, throwing for a value outside -1...1.
    public func setPan(_ value: Float) throws { try setSetting(.pan, \.pan, value, "setPan", Self.panRange, writing: .placement) }

    /// Playback rate, 0.5...2 (clamped); OpenAL couples rate and pitch, as AVAudioPlayer's
    /// `rate` does not, so 2 plays an octave higher as well as twice as fast.
    public var rate: Float {
        get { settings.rate }
        set { setClamped(newValue, in: Self.rateRange, setRate) }
    }

    /// Sets ``rate``, throwing for a value outside 0.5...2.
    public func setRate(_ value: Float) throws { try setSetting(.rate, \.rate, value, "setRate", Self.rateRange, writing: .pitch) }

    /// 0 plays once, N plays exactly N+1 times back to back (sample-exact), any negative
    /// number loops until stopped. Takes effect at the next start from idle or stopped.
    public var numberOfLoops: Int {
        get { state.withLockedValue { $0.settings.numberOfLoops } }
        set {
            state.withLockedValue { s in
                s.settings.numberOfLoops = max(-1, newValue)
                dropPreparedFeed(&s)
            }
        }
    }

    /// An intro then a looped region: the sound plays from the start, and once it reaches
    /// the region's end it jumps back to the region's start, forever
    /// (`AL_SOFT_loop_points`). Seconds within the sound; nil plays the whole sound per
    /// ``numberOfLoops``. Takes effect at the next start from idle or stopped. Setting an
    /// invalid region through this property is ignored; ``setLoopRegion(_:)`` throws.
    public var loopRegion: Range<Double>? {
        get { state.withLockedValue { $0.settings.loopRegion } }
        set { logging { try setLoopRegion(newValue) } }
    }

    /// The loop region in frames of the sound, as it plays (seconds rounded to the nearest
    /// frame); nil when there is none.
    public var loopRegionFrames: Range<Int>? { loopRegion.map(loopRegionFrames(of:)) }

    /// Sets ``loopRegion``, in seconds within the sound.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a region outside
    ///   the sound, ``SoundStageError/Code-swift.struct/invalidState`` for a streamed sound,
    ///   ``SoundStageError/Code-swift.struct/extensionMissing`` without `AL_SOFT_loop_points`.
    public func setLoopRegion(_ region: Range<Double>?) throws {
        if let region {
            guard region.lowerBound.isFinite, region.upperBound.isFinite, region.lowerBound >= 0,
                  region.upperBound <= duration + 1e-9,
                  Int((region.upperBound - region.lowerBound) * Double(sound.sampleRate)) >= 1 else {
                throw failure(.invalidArgument, "setLoopRegion(\(region))", "the region must lie within the sound's \(duration) s and hold at least one frame")
            }
            guard !sound.isStreamed else {
                throw failure(.invalidState, "setLoopRegion(_:)", "loop regions need a loaded sound, not a streamed one")
            }
            guard hasLoopPoints else {
                throw failure(.extensionMissing, "setLoopRegion(_:)", "loop points need AL_SOFT_loop_points")
            }
        }
        state.withLockedValue { s in
            s.settings.loopRegion = region
            s.loopBuffer = nil
            dropPreparedFeed(&s)
        }
    }

    /// Sets the loop region in frames of the sound: the same as ``setLoopRegion(_:)``, exact
    /// to the frame.
    public func setLoopRegion(frames: Range<Int>?) throws {
        let rate = Double(sound.sampleRate)
        try setLoopRegion(frames.map { Double($0.lowerBound) / rate..<Double($0.upperBound) / rate })
    }

    /// The frames a loop region in seconds covers, as the looping buffer plays it.
    func loopRegionFrames(of region: Range<Double>) -> Range<Int> {
        let rate = Double(sound.sampleRate)
        let start = Int((region.lowerBound * rate).rounded())
        let end = min(sound.frameCount, Int((region.upperBound * rate).rounded()))
        return start..<max(start + 1, end)
    }

    /// A place in the 3D world: the sound is positioned there (absolute coordinates) and
    /// ``pan`` no longer applies. nil (the default) plays it unpositioned. Only mono sounds
    /// are positioned by OpenAL; others play as they are. Non-finite values are ignored.
    public var position: SIMD3<Float>? {
        get { state.withLockedValue { $0.settings.position } }
        set {
            if let v = newValue, !v.isFinite { return }
            logging {
                try OpenAL.lock.withLock { held in
                    try state.withLockedValue(held) { s in
                        s.settings.position = newValue
                        s.tweens.removeAll { $0.kind == .position }
                        try apply(.placement, &s, held)
                    }
                }
            }
        }
    }

    // MARK: - Applying settings to the source

    /// What the game set, as the properties read it back.
    var settings: PlayerSettings { state.withLockedValue { $0.settings } }

    /// The one path of the throwing setters: checks `value` against `range` (the error names
    /// `member` and the setting), and under the lock, taken once, cancels the setting's
    /// tween, stores it, and writes the `parts` of the source it changes.
    private func setSetting(_ kind: Tween.Kind, _ setting: WritableKeyPath<PlayerSettings, Float>, _ value: Float, _ member: String,
                            _ range: ClosedRange<Float>, writing parts: SourceSettings.Parts) throws {
        try checkSetting(value, in: range, "\(member)(\(value))", "\(kind)")
        try OpenAL.lock.withLock { held in
            try state.withLockedValue(held) { s in
                if !s.tweens.isEmpty { s.tweens.removeAll { $0.kind == kind } }
                s.settings[keyPath: setting] = value
                try apply(parts, &s, held)
            }
        }
    }

    /// Throws ``SoundStageError/Code-swift.struct/invalidArgument`` from `operation` unless
    /// `value` is finite and in `range`: the check of every setter and tween.
    func checkSetting(_ value: Float, in range: ClosedRange<Float>, _ operation: @autoclosure () -> String, _ what: @autoclosure () -> String) throws {
        guard value.isFinite, range.contains(value) else {
            throw failure(.invalidArgument, operation(), "\(what()) must be in \(range)")
        }
    }

    /// The property setters' path: NaN is ignored, other values are clamped to `range`, and
    /// an error (only OpenAL could raise one, for a value already valid) is logged.
    private func setClamped(_ value: Float, in range: ClosedRange<Float>, _ set: (Float) throws -> Void) {
        guard !value.isNaN else { return }
        logging { try set(range.clamping(value)) }
    }

    /// A prepared but unstarted feed was made with the old loop settings: feed again at play.
    private func dropPreparedFeed(_ s: inout PlayerState) {
        if s.pendingStart != nil, s.status == .idle || s.status == .stopped { s.pendingStart = nil }
    }

    /// The gain the player's bus gives it now (1 once the engine is gone).
    func busGain(_ held: borrowing LockHeld) -> Float {
        let bus = state.withLockedValue(held) { $0.settings.bus }
        return engineRef?.gain(held, ofBus: bus) ?? 1
    }

    /// Sets the gain again after the bus's gain changed.
    func refreshGain(_ held: borrowing LockHeld) {
        let busGain = busGain(held)
        state.withLockedValue(held) { s in
            s.appliedBusGain = busGain
            do { try apply(.gain, &s, held) } catch { report(&s, held, error) }
        }
    }

    /// What the player's source takes: its volume times the bus gain last applied, its rate
    /// as the pitch, placed at ``position`` or by ``pan``, its walls and send level.
    func sourceSettings(_ s: PlayerState) -> SourceSettings {
        let p = s.settings
        return SourceSettings(gain: p.volume * s.appliedBusGain, pitch: p.rate,
                              placement: p.position.map { .world($0) } ?? .pan(p.pan, channels: sound.channelCount),
                              occlusion: p.occlusion, obstruction: p.obstruction, sendLevel: p.sendLevel, bus: p.bus)
    }

    /// Writes `parts` of the player's settings to its source (before it has one, there is
    /// nothing to write): the one path of every setter, tween and tick. The effects' filter
    /// and sends come from the engine's pool, as its voices' do.
    func apply(_ parts: SourceSettings.Parts, _ s: inout PlayerState, _ held: borrowing LockHeld) throws {
        guard let source = s.source else { return }
        try sourceSettings(s).write(parts, to: source, held) { try engineRef?.sends(held, for: $0, in: source.context) }
    }

    /// Runs a setter whose value is already valid: OpenAL can only refuse it through a bug,
    /// which is logged, as a property setter cannot throw.
    func logging(_ body: () throws -> Void) {
        do { try body() } catch { Log.report(error) }
    }
}
