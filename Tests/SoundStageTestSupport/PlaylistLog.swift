import Foundation
import SoundStage

/// A playlist's events, as its delegate hears them.
package final class PlaylistLog: PlaylistDelegate, @unchecked Sendable {
    package init() {}

    private let lock = NSLock()
    private var received: [PlaylistEvent] = []
    package var events: [PlaylistEvent] { lock.withLock { received } }
    package func playlist(_ playlist: Playlist, didStartItem index: Int) { lock.withLock { received.append(.itemStarted(index: index)) } }
    package func playlist(_ playlist: Playlist, didEndItem index: Int) { lock.withLock { received.append(.itemEnded(index: index)) } }
    package func playlistDidFinish(_ playlist: Playlist) { lock.withLock { received.append(.finished) } }
}
