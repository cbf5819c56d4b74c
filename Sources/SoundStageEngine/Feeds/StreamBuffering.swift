import SoundStageCore
import SoundStageSession

/// How much of a streamed sound is decoded ahead: chunks of ``chunkSeconds``, ``chunks`` of
/// them kept queued at first. After an underrun (the source ran dry because the service
/// thread was starved or the disk was slow) the number of chunks doubles, up to
/// ``maximumChunks``, so a stream that ran dry once is less likely to again.
///
/// The default, 4 chunks of 100 ms growing to 16 (1.6 s), suits music on a busy machine;
/// a smaller queue answers a seek sooner.
public struct StreamBuffering: Sendable, Hashable {
    /// The length of each chunk in seconds, 0.005...1.
    public var chunkSeconds: Double
    /// Chunks kept queued at first, 2...64.
    public var chunks: Int
    /// The most chunks an underrun can grow the queue to, `chunks`...256.
    public var maximumChunks: Int

    /// Buffering of `chunks` chunks of `chunkSeconds` each, growing to `maximumChunks` after
    /// underruns (checked by ``Player/setStreamBuffering(_:)``).
    public init(chunkSeconds: Double = 0.1, chunks: Int = 4, maximumChunks: Int = 16) {
        self.chunkSeconds = chunkSeconds
        self.chunks = chunks
        self.maximumChunks = maximumChunks
    }

    /// 4 chunks of 100 ms, growing to 16.
    public static let standard = StreamBuffering()

    /// Nil when the setting can be used; otherwise why not.
    package var problem: String? {
        guard chunkSeconds.isFinite, (0.005...1).contains(chunkSeconds) else { return "chunkSeconds must be in 0.005...1, got \(chunkSeconds)" }
        guard (2...64).contains(chunks) else { return "chunks must be in 2...64, got \(chunks)" }
        guard (chunks...256).contains(maximumChunks) else { return "maximumChunks must be in \(chunks)...256, got \(maximumChunks)" }
        return nil
    }
}
