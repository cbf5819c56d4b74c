import Foundation
import Testing
@testable import SoundStageSession

/// What an MPRIS peer announces, held to SoundStage's bounds: a rate of 1e300 or a position and
/// length of Int64.max microseconds would run `currentPlaybackTime` past any seek a player takes.
@Suite("Music players' values from the bus, held to their bounds")
struct MusicPlayerBoundsTests {
    @Test("Rate 1e300, Position and mpris:length of Int64.max: the rate held to 100, the clock and the length to 10^7 s")
    func peerValuesClamped() {
        var info = MusicPlayerInfo(busName: "org.mpris.MediaPlayer2.hostile")
        info.update(player: ["PlaybackStatus": .string("Playing"), "Rate": .double(1e300), "Position": .int(.max),
                             "Metadata": .dictionary(["xesam:title": .string("t"), "mpris:length": .int(.max)])])
        #expect(info.rate == SystemMusicPlayer.rates.upperBound)
        #expect(info.currentPlaybackTime <= SystemMusicPlayer.longestPosition)
        #expect((info.nowPlayingItem?.playbackDuration ?? 0) <= SystemMusicPlayer.longestPosition)
        info.update(player: ["Rate": .double(1e-300)])
        #expect(info.rate == SystemMusicPlayer.rates.lowerBound)
        // A seek from that clock converts to microseconds without a trap.
        #expect(Int64(exactly: (info.currentPlaybackTime * 1_000_000).rounded()) != nil)
    }
}
