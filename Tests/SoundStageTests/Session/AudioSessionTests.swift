import Foundation
import Testing
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// The session's own logic with offline engines joined to a session of the test's own (the
/// process's shared one would reach other suites' engines). What crosses the sound server is
/// tested in a child process (AudioSessionTests+Server).
@Suite("AudioSession: categories, activation, interruptions and their policies")
struct AudioSessionTests {
    static func engine(_ session: AudioSession) throws -> AudioEngine {
        try AudioEngine(output: .offline(RenderFormat(sampleRate: EngineRig.rate, channels: .stereo, sampleType: .float32)),
                        attributes: ContextAttributes(hrtf: .off), service: .manual(tick: 0.01), session: session)
    }

    /// A session of the test's own, its events logged, and an offline engine joined to it.
    static func rig() throws -> (AudioSession, SessionLog, AudioEngine) {
        let session = AudioSession(name: "test session")
        let log = SessionLog()
        session.delegate = log
        return (session, log, try engine(session))
    }

    @Test("the game's interruption: music resumes where it stopped, drums stop, a stayPaused player waits; events in order on the session's thread")
    func gameInterruption() throws {
        let (session, log, engine) = try Self.rig()
        defer { engine.shutdown() }
        let music = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
        let drum = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
        let voice = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
        drum.interruptionPolicy = .stop
        voice.interruptionPolicy = .stayPaused
        try engine.play([music, drum, voice])
        _ = try engine.render(frames: 10_000)
        let heard = music.currentFrame
        session.beginInterruption()
        session.beginInterruption()   // again: nothing more
        #expect(session.isInterrupted && session.interruptions == [.app])
        #expect(!music.isPlaying && !drum.isPlaying && !voice.isPlaying)
        #expect(Measure.dB(Measure.afterStopFade(try engine.render(frames: 4_800), channel: 0, engine.context)) == -160)
        #expect(music.currentFrame == heard, "paused where it was")
        expectError(.invalidState, mentioning: ["interrupted"]) { try music.play() }
        session.endInterruption(shouldResume: true)
        #expect(music.isPlaying && !drum.isPlaying && !voice.isPlaying)
        let after = try engine.render(frames: 4_800)
        // The music plays on from its playhead: the rendered sine continues its own samples.
        let expected = (0..<4_800).map { 0.5 * sin(2 * Float.pi * 1_000 * Float(heard + $0) / Float(EngineRig.rate)) }
        let left = after.channel(0)
        let gain = left[100...].map(abs).max()! / 0.5
        let snr = Measure.snrDB(Array(left[480...]), against: Array(expected[480...]).map { $0 * gain }, count: 4_800 - 480)
        #expect(snr > 60, "\(snr) dB")
        #expect(log.wait(for: 2) == ["interruptionBegan(app)", "interruptionEnded(shouldResume: true)"])
        #expect(log.allOnSessionThread)
        #expect(drum.currentFrame == 0 || !drum.isPlaying)
    }

    @Test("overlapping interruptions end once, resuming only if every one said so; ambient ignores calls")
    func overlapping() throws {
        let (session, log, engine) = try Self.rig()
        defer { engine.shutdown() }
        let music = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
        try music.play()
        session.begin(.phoneCall)
        session.begin(.processSuspended)
        session.end(.phoneCall, shouldResume: true)
        #expect(session.isInterrupted && !music.isPlaying)
        session.end(.processSuspended, shouldResume: false)
        #expect(!session.isInterrupted && !music.isPlaying, "one end said not to resume")
        try session.setCategory(.ambient)
        try music.play()
        session.begin(.phoneCall)
        #expect(!session.isInterrupted && music.isPlaying, "ambient goes on through a call")
        session.end(.phoneCall, shouldResume: true)   // never began: nothing
        #expect(log.wait(for: 2) == ["interruptionBegan(phoneCall)", "interruptionEnded(shouldResume: false)"])
    }

    @Test("setActive: deactivating twice is one change; players keep their state across it")
    func activation() throws {
        let (session, log, engine) = try Self.rig()
        defer { engine.shutdown() }
        let music = engine.makePlayer(try EngineRig.sine(engine, amplitude: 0.5, seconds: 2))
        try music.play()
        try session.setActive(false)
        try session.setActive(false)
        #expect(!session.isActive && music.isPlaying)
        try session.setActive(true)
        try session.setActive(true)
        #expect(session.isActive && music.isPlaying)
        #expect(log.wait(for: 2) == ["activeChanged(false)", "activeChanged(true)"])
        // An engine made while the session is interrupted starts interrupted.
        session.beginInterruption()
        let late = try Self.engine(session)
        defer { late.shutdown() }
        let player = late.makePlayer(try EngineRig.sine(late, amplitude: 0.5))
        expectError(.invalidState) { try player.play() }
        session.endInterruption()
        try player.play()
    }
}
