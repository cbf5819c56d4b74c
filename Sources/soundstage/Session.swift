import ArgumentParser
import Foundation
import SoundStage

struct Session: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what SoundStage's audio session sees as it happens: interruptions, route changes, devices, the sound server.",
        discussion: """
        Opens an engine on the default output device (it joins the session) and prints one line per event, \
        with the milliseconds since start, until Ctrl-C or --seconds. With --tone or --file it plays while it \
        watches, so you can hear what an interruption or an unplugged device does. Try: start a call, press \
        Ctrl-Z then `fg`, switch the default output, unplug headphones.
        """)

    @Option(help: "Play a sine of this many Hz, looping, while watching.")
    var tone: Double?

    @Option(help: "Play this sound file, looping, while watching.")
    var file: String?

    @Option(help: "The session category: \(AudioSession.Category.allCases.map(\.rawValue).joined(separator: ", ")).")
    var category: String = AudioSession.Category.soloAmbient.rawValue

    @Flag(help: "Let other applications' music play on (the category option mixWithOthers).")
    var mixWithOthers = false

    @Flag(help: "Lower other applications while the session is active, and give them their volumes back after (duckOthers).")
    var duckOthers = false

    @Option(help: "How many dB lower --duck-others plays other applications.")
    var duckingDepth: Double?

    @Option(help: "The output's latency mode: \(LatencyMode.allCases.map(\.rawValue).joined(separator: ", ")) (default: none, OpenAL Soft's own periods). The engine steps back to a safer one when the machine does not hold it.")
    var latency: String?

    @Flag(help: "Play the sound as an effect, which keeps playing when its device goes, rather than as music, which pauses.")
    var effect = false

    @Flag(help: "Load --file whole before it plays, rather than streaming it.")
    var loaded = false

    @Flag(help: "Play the sound as a voice of the engine's pool (engine.play), rather than through a player.")
    var voice = false

    @Flag(help: "When no output device is left, play on a silent output meanwhile, so the playhead moves on.")
    var silentFallback = false

    @Option(help: "Print the player's state every this many seconds (0: never).")
    var statusEvery: Double = 0

    @Option(help: "Stop after this many seconds (default: run until interrupted).")
    var seconds: Double?

    // Async, and its loop awaits: a command's `run()` runs on a thread of Swift's task pool,
    // and a loop that slept on it kept the tasks that print the events waiting (a second on
    // one core; on a loaded machine, for good: the pool had no other thread).
    func run() async throws {
        guard let category = AudioSession.Category(rawValue: category) else {
            fail("unknown category '\(category)'; use one of \(AudioSession.Category.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        // The sound checked before a device opens.
        if let tone, !(tone.isFinite && tone > 0 && tone < 20_000) { fail("--tone takes 1...20000 Hz, got \(tone)") }
        if let file {
            do { _ = try SoundFile.decoder(contentsOf: URL(fileURLWithPath: file)) } catch { fail("\(error)") }
        }
        // Ctrl-C (or SIGTERM) shuts the engine down and ends, rather than killing the process.
        let stop = Stopper()
        for signal in [SIGINT, SIGTERM, SIGHUP] { stop.watch(signal) }
        let start = ContinuousClock.now
        let clock: @Sendable () -> String = {
            let elapsed = ContinuousClock.now - start
            return String(format: "%8.1f ms", Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) * 1e-15)
        }
        let say: @Sendable (String) -> Void = { line in
            FileHandle.standardOutput.write(Data("\(clock())  \(line)\n".utf8))
        }
        let session = AudioSession.shared
        do {
            var options: AudioSession.CategoryOptions = []
            if mixWithOthers { options.insert(.mixWithOthers) }
            if duckOthers { options.insert(.duckOthers) }
            try session.setCategory(category, options: options)
            if let duckingDepth { try session.setDuckingDepth(duckingDepth) }
        } catch {
            fail("\(error)")
        }
        // Subscribed before the engine is made, which starts the session's watchers.
        printEvents(session.events(), as: "session", with: say)
        var mode: LatencyMode?
        if let latency {
            guard let asked = LatencyMode(rawValue: latency) else {
                fail("unknown latency mode '\(latency)'; use one of \(LatencyMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            mode = asked
        }
        var engine: AudioEngine?
        do { engine = try AudioEngine(attributes: ContextAttributes(latency: mode)) } catch { fail("\(error)") }
        let failure = await watch(engine!, session: session, stop: stop, say: say)
        // The other applications it lowers get their volumes back as its engine goes: waited
        // for (up to 2 s), so that the tool says which before it ends.
        let restoring = session.ducksOthers ? session.events() : nil
        // The music players it paused are resumed as its engine goes (and, whatever is left,
        // as the process exits): waited for (up to 1 s), so that the tool says which.
        let resuming = session.holdsOtherMusic ? session.events() : nil
        // Its player and voice are gone with watch(_:session:stop:say:): the device closes now.
        close(&engine)
        if let restoring { await waitForEvent(restoring, seconds: 2) { if case .otherAudioRestored = $0 { true } else { false } } }
        if let resuming { await waitForEvent(resuming, seconds: 1) { if case .otherMusicResumed = $0 { true } else { false } } }
        if let failure { fail(failure) }
    }

    /// Plays the sound asked for on `engine` while the events are printed, until Ctrl-C or
    /// --seconds; returns why it could not play, if it could not.
    private func watch(_ engine: AudioEngine, session: AudioSession, stop: Stopper, say: @escaping @Sendable (String) -> Void) async -> String? {
        say("engine on \(engine.device.name) (\(engine.context.frequency) Hz\(engine.latencyMode.map { ", latency mode \($0)" } ?? "")); session \(session.category), \(session.isActive ? "active" : "inactive")")
        printEvents(engine.events(), as: "engine", with: say)
        engine.fallsBackToSilentOutput = silentFallback
        var player: Player?
        var playing: Voice?
        do {
            var sound: Sound?
            if let tone {
                sound = try Sound(engine: engine, waveform: .sine, frequency: Float(tone), duration: 1)
            } else if let file {
                let url = URL(fileURLWithPath: file)
                sound = loaded ? try Sound(engine: engine, contentsOf: url) : try Sound(engine: engine, streamingContentsOf: url)
            }
            if let sound, voice {
                playing = try engine.play(sound, volume: 0.5, loops: -1, options: VoiceOptions(isPinned: true))
                say("playing \(sound.label) as a voice")
            } else if let sound {
                player = engine.makePlayer(sound)
            }
            if let player {
                player.numberOfLoops = -1
                player.volume = 0.5
                player.outputLossPolicy = effect ? .keepPlaying : .pause
                try player.play()
                say("playing \(player.sound.label) as \(effect ? "an effect" : "music")")
            }
        } catch {
            return "\(error)"
        }
        let end = seconds.map { ContinuousClock.now + .seconds($0) }
        var nextStatus = ContinuousClock.now
        var nodeLatency: ServerNodeLatency?
        while !stop.asked && !Task.isCancelled && (end.map { ContinuousClock.now < $0 } ?? true) {
            // What PipeWire gave the stream, once it shows it and whenever it changes.
            if let given = engine.serverNodeLatency, given != nodeLatency {
                nodeLatency = given
                say("server: \(engine.latencyFloorNote ?? "the output's stream has node.latency \(given)")")
            }
            if statusEvery > 0, let playing, ContinuousClock.now >= nextStatus {
                say(String(format: "status: voice %@ at frame %.1f on %@", "\(playing.status)", playing.playheadFrames ?? -1, engine.device.name))
                nextStatus = ContinuousClock.now + .seconds(statusEvery)
            }
            if statusEvery > 0, let player, ContinuousClock.now >= nextStatus {
                let latency = player.audioSource.map { $0.context.isExtensionPresent("AL_SOFT_source_latency") ? $0.get(.offsetWithLatency).latency : 0 } ?? 0
                say(String(format: "status: %@ at %.3f s on %@ (output latency %.1f ms)", player.isPlaying ? "playing" : "paused",
                           player.currentTime, engine.device.name, latency * 1000))
                nextStatus = ContinuousClock.now + .seconds(statusEvery)
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits (up to `seconds`) for the session to post an event `matches` takes (it gave other
    /// applications their volumes or their music back), and a moment for the line to be printed.
    private func waitForEvent(_ events: AsyncStream<SessionEvent>, seconds: Double, _ matches: @escaping @Sendable (SessionEvent) -> Bool) async {
        let heard = Task {
            for await event in events where matches(event) { return true }
            return false
        }
        // Iterating an AsyncStream ends when its task is cancelled.
        let timeout = Task {
            try? await Task.sleep(for: .seconds(seconds))
            heard.cancel()
        }
        if await heard.value { try? await Task.sleep(for: .milliseconds(50)) }
        timeout.cancel()
    }

    /// Prints each event of `events` as it comes, `source: event`, until the stream ends.
    private func printEvents<Event: Sendable>(_ events: AsyncStream<Event>, as source: String, with say: @escaping @Sendable (String) -> Void) {
        Task.detached {
            for await event in events { say("\(source): \(event)") }
        }
    }
}
