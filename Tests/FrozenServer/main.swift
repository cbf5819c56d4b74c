import Foundation
import SoundStage

// A game whose sound server freezes under it: it plays a tone and moves it every 5 ms on a
// game thread, and stops the server (SIGSTOP to each of PIDS, argument 1, comma-separated)
// for SECONDS (argument 3) in the middle of what MODE (argument 2) names:
//
//   hrtf     an HRTF switch on the main thread (a device reset: a round trip to the server)
//   hrtf-in-mode  the same in latency mode .balanced, which the engine watches for underruns
//            by the device's clock: prints the underruns it counted and the mode it ends in
//   latency  a latency change on the main thread (another reset)
//   exit     an HRTF switch on another thread, and exit(0) one second into the freeze
//   race     no freeze: 40 latency changes on the main thread while the game thread reads a
//            playing player's time every millisecond (a read of the output latency, which
//            OpenAL Soft makes under the locks a reset takes the other way round); prints
//            "raced N changes" once done, and hangs where the two deadlock
//   race-effects  the same with the game thread loading a reverb into the effects bus and
//            taking it out again every millisecond (OpenAL Soft makes an effect's state under
//            its device's lock, holding the context's)
//
// It prints the longest setPosition call the game thread saw while the server was stopped and
// after, the longest read of what a game's screen shows each frame (the HRTF's status and
// name, the output limiter, the HRTF sets, the connection, the period), and how long the
// switch took. The server is let go (SIGCONT) after SECONDS by a
// thread of its own, and by the test as it ends. Run by FrozenServerTests.
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let seconds = Double(arguments[arguments.startIndex + 2]) else {
    print("usage: FrozenServer PID[,PID...] hrtf|latency|exit|race SECONDS")
    exit(2)
}
let pids = arguments[arguments.startIndex].split(separator: ",").compactMap { pid_t($0) }
let mode = arguments[arguments.startIndex + 1]

/// What the game thread measured: its calls, the longest, and when it was made.
final class CallTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    private var longest = 0.0
    private var longestRead = 0.0
    private var errors = 0
    private var stop = false

    func note(_ seconds: Double, failed: Bool) {
        lock.withLock {
            calls += 1
            longest = max(longest, seconds)
            if failed { errors += 1 }
        }
    }
    func noteRead(_ seconds: Double) { lock.withLock { longestRead = max(longestRead, seconds) } }
    var shouldStop: Bool { lock.withLock { stop } }
    func finish() -> (calls: Int, longest: Double, errors: Int, longestRead: Double) {
        lock.withLock { stop = true; return (calls, longest, errors, longestRead) }
    }
}

let engine = try AudioEngine()
let rate = 48_000
let samples = (0..<rate).map { Float(0.25 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
let tone = Sound(buffer: try AudioBuffer(context: engine.context, samples: samples, sampleRate: rate, label: "tone"))
if mode == "hrtf-in-mode" {
    try engine.setLatencyMode(.balanced)
    // What the engine heard and did, for the test's message: dropouts, steps back.
    let events = engine.events()
    Task.detached {
        for await event in events {
            print("event at \(engine.currentTime): \(event)")
            fflush(nil)
        }
    }
}
let voice = try engine.play(tone, at: [1, 0, 0], loops: -1)
print("playing")
fflush(nil)
Thread.sleep(forTimeInterval: 1)

if mode.hasPrefix("race") {
    let music = engine.makePlayer(try Sound(engine: engine, waveform: .sine, frequency: 330, duration: 1))
    music.numberOfLoops = -1
    try music.play()
    let reads = CallTimes()
    let effects = mode == "race-effects"
    let reader = Thread {
        var reverb = false
        while !reads.shouldStop {
            if effects {
                reverb.toggle()
                let failed = (try? engine.effectsBus.setEffect(reverb ? .reverb(Reverb(preset: .room)) : nil)) == nil
                reads.note(0, failed: failed)
            } else {
                _ = music.currentTime
                reads.note(0, failed: false)
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }
    reader.start()
    let modes: [LatencyMode] = [.low, .balanced]
    for change in 0..<40 {
        do { try engine.setLatencyMode(modes[change % 2]) } catch { print("change \(change) failed: \(error)") }
    }
    let done = reads.finish()
    print("raced 40 changes, \(done.calls) \(effects ? "effect loads" : "reads of the player's time") beside them, \(done.errors) failed")
    fflush(nil)
    exit(0)
}

let times = CallTimes()
let game = Thread {
    var angle = 0.0
    while !times.shouldStop {
        angle += 0.01
        let start = DispatchTime.now().uptimeNanoseconds
        let failed = (try? voice.setPosition([Float(cos(angle)), 0, Float(sin(angle))])) == nil
        times.note(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, failed: failed)
        let reading = DispatchTime.now().uptimeNanoseconds
        let shown = "\(engine.context.hrtfStatus) \(engine.context.hrtfName ?? "-") \(engine.context.outputLimiter ?? false) "
            + "\(engine.device.availableHRTFs.count) \(engine.device.isConnected) \(engine.context.periodFrames ?? 0)"
        times.noteRead(Double(DispatchTime.now().uptimeNanoseconds - reading) / 1e9)
        _ = shown
        Thread.sleep(forTimeInterval: 0.005)
    }
}
game.start()
Thread.sleep(forTimeInterval: 0.5)

func freeze() {
    for pid in pids { kill(pid, SIGSTOP) }
    print("stopped the server")
    fflush(nil)
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: seconds)
        for pid in pids { kill(pid, SIGCONT) }
    }
}

@Sendable func change() -> String {
    let start = DispatchTime.now().uptimeNanoseconds
    var outcome = "done"
    do {
        if mode == "latency" { try engine.setLatencyMode(.safe) } else { try engine.switchHRTF(.on) }
    } catch {
        outcome = "failed: \(error)"
    }
    return "switch took \(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) s, \(outcome)"
}

freeze()
if mode == "exit" {
    Thread.detachNewThread { print(change()) }
    Thread.sleep(forTimeInterval: 1)
    let measured = times.finish()
    print("longest setPosition: \(measured.longest * 1000) ms of \(measured.calls) calls, \(measured.errors) failed")
    print("longest status read: \(measured.longestRead * 1000) ms")
    print("exiting")
    fflush(nil)
    exit(0)
}
print(change())
Thread.sleep(forTimeInterval: 1)
let measured = times.finish()
print("longest setPosition: \(measured.longest * 1000) ms of \(measured.calls) calls, \(measured.errors) failed")
print("longest status read: \(measured.longestRead * 1000) ms")
if mode == "hrtf-in-mode" { print("in mode \(engine.latencyMode.map { "\($0)" } ?? "none") with \(engine.outputUnderruns) underruns counted") }
print("ending")
