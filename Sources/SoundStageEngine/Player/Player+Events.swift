import Foundation
import SoundStageCore
import SoundStageSession

extension Player {
    /// Receives events; held weakly, like `AVAudioPlayer.delegate`.
    public var delegate: PlayerDelegate? {
        get { state.withLockedValue { $0.delegate } }
        set { state.withLockedValue { $0.delegate = newValue } }
    }

    /// A stream of this player's events from now on; each call makes a new subscriber. It
    /// ends when the player goes away.
    /// Each stream holds at most 1,024 events its reader has not taken; past that the oldest
    /// are dropped, and counted in ``droppedEventCount``.
    public func events() -> AsyncStream<PlayerEvent> { EventSubscribers.subscribe(state, \.subscribers) }

    /// How many events the streams of ``events()`` dropped, oldest first, because their
    /// reader was 1,024 events behind.
    public var droppedEventCount: Int { state.withLockedValue { $0.subscribers.dropped } }

    /// Hands an event of run `run` to the delegate and the streams, with no lock held. A
    /// `finished` of a run that stop() ended since is dropped.
    func deliver(_ event: PlayerEvent, run: Int) {
        let target = state.withLockedValue { s -> (PlayerDelegate?, EventDelivery<PlayerEvent>)? in
            if case .finished = event, run <= s.cancelledThrough { return nil }
            return (s.delegate, s.subscribers.all)
        }
        guard let (delegate, streams) = target else { return }
        switch event {
        case .finished(let ok): delegate?.playerDidFinishPlaying(self, successfully: ok)
        case .decodeError(let error): delegate?.playerDecodeErrorDidOccur(self, error: error)
        case .interruptionBegan: delegate?.playerBeginInterruption(self)
        case .interruptionEnded: delegate?.playerEndInterruption(self)
        }
        streams.yield(event)
    }
}
