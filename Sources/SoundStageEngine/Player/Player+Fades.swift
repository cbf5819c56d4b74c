import SoundStageCore
import SoundStageSession

/// A fade or tween in progress: a value moving along a curve over engine time.
struct Tween {
    enum Kind { case volume, pan, rate, position }
    var kind: Kind
    var from: SIMD3<Float>
    var to: SIMD3<Float>
    /// Engine seconds.
    var startSeconds: Double
    var durationSeconds: Double
    var curve: FadeCurve
    var stopAtEnd: Bool
    /// The volume a fade that stops the player leaves it at (a crossfade's outgoing track
    /// keeps its volume for the next time it plays); nil: the fade's end.
    var volumeAfterStop: Float?

    var endSeconds: Double { startSeconds + durationSeconds }

    /// The value due at engine time `seconds`.
    func value(atSeconds seconds: Double) -> SIMD3<Float> {
        let x = FadeCurve.progress(at: seconds, start: startSeconds, duration: durationSeconds)
        return SIMD3(curve.mix(from.x, to.x, x), curve.mix(from.y, to.y, x), curve.mix(from.z, to.z, x))
    }
}

extension Player {
    /// Fades the volume to `target` over `duration` seconds of engine time, then stops if
    /// asked (without a finished event, as ``stop()``). The service loop moves the volume
    /// every tick, and OpenAL ramps each change, so there are no audible steps.
    public func fade(to target: Float, duration: Double, curve: FadeCurve = .linear, stopAtEnd: Bool = false) throws {
        try checkSetting(target, in: Self.volumeRange, "fade(to: \(target))", "volume")
        try addTween(.volume, "fade(to:duration:curve:stopAtEnd:)", from: { SIMD3(repeating: $0.volume) }, to: SIMD3(repeating: target),
                     duration: duration, curve: curve, stopAtEnd: stopAtEnd)
    }

    /// Moves ``pan`` to `target` over `duration` seconds.
    public func tweenPan(to target: Float, duration: Double, curve: FadeCurve = .linear) throws {
        try checkSetting(target, in: Self.panRange, "tweenPan(to: \(target))", "pan")
        try addTween(.pan, "tweenPan(to:duration:curve:)", from: { SIMD3(repeating: $0.pan) }, to: SIMD3(repeating: target), duration: duration, curve: curve)
    }

    /// Moves ``rate`` to `target` over `duration` seconds.
    public func tweenRate(to target: Float, duration: Double, curve: FadeCurve = .linear) throws {
        try checkSetting(target, in: Self.rateRange, "tweenRate(to: \(target))", "rate")
        try addTween(.rate, "tweenRate(to:duration:curve:)", from: { SIMD3(repeating: $0.rate) }, to: SIMD3(repeating: target), duration: duration, curve: curve)
    }

    /// Moves ``position`` to `target` over `duration` seconds (from the origin when unset).
    public func tweenPosition(to target: SIMD3<Float>, duration: Double, curve: FadeCurve = .linear) throws {
        guard target.isFinite else { throw failure(.invalidArgument, "tweenPosition(to:duration:curve:)", "the target must be finite, got \(target)") }
        try addTween(.position, "tweenPosition(to:duration:curve:)", from: { $0.position ?? .zero }, to: target, duration: duration, curve: curve)
    }

    /// Starts a tween of `kind` from the value `from` gives (read from the settings now) to
    /// `to`, beginning at engine time `start` (now when nil; before it, the value holds at
    /// `from`). It replaces a tween of the same kind.
    func addTween(_ kind: Tween.Kind, _ member: String, from: (PlayerSettings) -> SIMD3<Float>, to: SIMD3<Float>,
                  duration: Double, curve: FadeCurve, stopAtEnd: Bool = false, start: Double? = nil, volumeAfterStop: Float? = nil) throws {
        guard duration.isFinite, duration >= 0 else { throw failure(.invalidArgument, member, "duration must be finite and not negative, got \(duration)") }
        let engine = try liveEngine(member)
        OpenAL.lock.withLock { held in
            let now = engine.currentTime
            let busGain = busGain(held)
            state.withLockedValue(held) { s in
                s.tweens.removeAll { $0.kind == kind }
                s.tweens.append(Tween(kind: kind, from: from(s.settings), to: to, startSeconds: start ?? now, durationSeconds: duration,
                                      curve: curve, stopAtEnd: stopAtEnd, volumeAfterStop: volumeAfterStop))
                advanceTweens(&s, held, nowSeconds: now, busGain: busGain)
            }
        }
    }

    /// Moves every tween on; stops the player if a finished fade asked for it.
    ///
    /// Each value is the one due where the coming tick will be heard (``curveLeadSeconds``:
    /// a tick from `now` where OpenAL ramps a change across the next mix, half a tick where
    /// it steps), so the level heard follows the curve instead of lagging it (measured on
    /// 1.19: up to 0.8 dB late near the end of a 1 s linear fade without this).
    func advanceTweens(_ s: inout PlayerState, _ held: borrowing LockHeld, nowSeconds now: Double, busGain: Float) {
        guard !s.tweens.isEmpty else { return }
        var stopNow = false
        var volumeAfterStop: Float?
        for tween in s.tweens {
            // A step (a tween of no length) is not looked ahead to: it lands on the first tick
            // at or after its time (offline, a scheduled start's own tick: on its frame).
            let v = tween.value(atSeconds: tween.durationSeconds > 0 ? now + curveLeadSeconds : now)
            do {
                switch tween.kind {
                case .volume:
                    s.settings.volume = Self.volumeRange.clamping(v.x)
                    s.appliedBusGain = busGain
                    try apply(.gain, &s, held)
                case .pan:
                    s.settings.pan = Self.panRange.clamping(v.x)
                    try apply(.placement, &s, held)
                case .rate:
                    s.settings.rate = Self.rateRange.clamping(v.x)
                    try apply(.pitch, &s, held)
                case .position:
                    s.settings.position = v
                    try apply(.placement, &s, held)
                }
            } catch {
                report(&s, held, error)
            }
            if now >= tween.endSeconds, tween.stopAtEnd {
                stopNow = true
                volumeAfterStop = tween.volumeAfterStop
            }
        }
        s.tweens.removeAll { now >= $0.endSeconds }
        if stopNow, s.status == .playing || s.status == .paused {
            stop(&s, held)
            if let volumeAfterStop { s.settings.volume = volumeAfterStop }
        }
    }
}
