import SoundStageCore
import SoundStageSession

/// What happens to a playlist as it plays, delivered by the engine's service loop when it is
/// heard (an output latency after it is mixed, on a real device).
public enum PlaylistEvent: Sendable, Hashable, CustomStringConvertible {
    /// Item `index` began: the playlist started on it, the one before ended into it, it
    /// repeated, or a skip or seek moved to it.
    case itemStarted(index: Int)
    /// Item `index` ended: its last frame was heard, or a skip or seek left it.
    case itemEnded(index: Int)
    /// The last item ended and nothing repeats: the playlist stopped.
    case finished

    /// For example `itemStarted(index: 2)`.
    public var description: String {
        switch self {
        case .itemStarted(let index): return "itemStarted(index: \(index))"
        case .itemEnded(let index): return "itemEnded(index: \(index))"
        case .finished: return "finished"
        }
    }
}

/// Receives a playlist's events, serially on the thread running the engine's service loop.
/// Every method has an empty default.
public protocol PlaylistDelegate: AnyObject {
    /// Item `index` began.
    func playlist(_ playlist: Playlist, didStartItem index: Int)
    /// Item `index` ended.
    func playlist(_ playlist: Playlist, didEndItem index: Int)
    /// The last item ended and nothing repeats.
    func playlistDidFinish(_ playlist: Playlist)
}

extension PlaylistDelegate {
    public func playlist(_ playlist: Playlist, didStartItem index: Int) {}
    public func playlist(_ playlist: Playlist, didEndItem index: Int) {}
    public func playlistDidFinish(_ playlist: Playlist) {}
}
