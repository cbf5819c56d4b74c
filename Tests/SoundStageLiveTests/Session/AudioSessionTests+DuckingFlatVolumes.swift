import Foundation
import Testing
import SoundStageTestSupport

extension AudioSessionDuckingTests {
    @Test("PulseAudio's flat volumes: the user sets the sink to 50 % while the game ducks; the music comes back at its 70 % carried by the sink (35 %), a stream the user set meanwhile stays as set")
    func flatVolumes() throws {
        try #require(PrivatePulse.Kind.pulseaudio.isInstalled)
        let pulse = try PrivatePulse(.pulseaudio, flatVolumes: true)
        defer { pulse.stop() }
        _ = try pulse.addSink("apps")
        _ = try pulse.pactl(["set-default-sink", "apps"])
        let (music, original) = try Self.music(pulse)
        defer { music.stop() }
        let video = try OtherApplication(pulse, name: "video", hz: 550, sink: "apps")
        defer { video.stop() }
        try video.setVolume(percent: 90)

        let game = try pulse.session(["--category", "playback", "--duck-others", "--ducking-depth", "12"])
        defer { game.stop() }
        #expect(game.waitForLine(containing: "otherAudioDucked(depth: 12.0 dB)") != nil, "\(game.lines)")
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream?.volume != original && video.stream?.volume.first != 58982 })
        let lowered = try #require(music.stream?.volume)

        // The user's mixer sets the sink to 50 %: with flat volumes every stream follows.
        #expect(try pulse.pactl(["set-sink-volume", "apps", "50%"]).status == 0)
        let carried = lowered.map { $0 / 2 }
        try #require(Poll.until(seconds: 3, every: 0.02) { music.stream.map { Self.same($0.volume, carried) } == true },
                     "the server has flat volumes (the stream followed its sink): \(String(describing: music.stream)) against \(carried)")
        // And sets the video's own volume.
        #expect(try pulse.pactl(["set-sink-input-volume", "\(try #require(video.stream?.index))", "20%"]).status == 0)
        #expect(video.waitForVolume(13107, tolerance: 1))
        Thread.sleep(forTimeInterval: 0.3)

        game.stop()
        #expect(game.ending == "exit 0", "\(game.ending) \(game.lines)")
        let back = original.map { $0 / 2 }
        #expect(Poll.until(seconds: 5, every: 0.02) { music.stream.map { Self.same($0.volume, back) } == true },
                "70 % of the sink's 50 %: \(String(describing: music.stream)) against \(back) \(game.lines)")
        #expect(video.stream?.volume.allSatisfy { $0 == 13107 } == true, "the user's 20 % kept: \(String(describing: video.stream))")
        #expect(Self.records(pulse, of: game).isEmpty, "no record left")
    }
}
