/// The one error type SoundStage throws.
///
/// Every error names the ``operation`` that failed as `Type.member` (for example
/// `AudioSource.set(gain)` or `Player.seek(to:)`), the ``object`` it was applied to (a device,
/// a context, a buffer with its file name, a source, a player), and carries a ``code`` that
/// `catch` can match, either with a `where` clause or by the code alone:
///
/// ```swift
/// do {
///     _ = try AudioSource(context: context)
/// } catch SoundStageError.Code.sourceLimitReached {
///     print("no source left")
/// } catch let error as SoundStageError {
///     print(error)   // "AudioSource.init on context 1: source limit reached: ..."
/// }
/// ```
public struct SoundStageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var code: Code
    /// The operation that failed, as `Type.member`, e.g. `AudioSource.set(gain)`.
    public var operation: String
    /// The object it was applied to, e.g. `"source 3 in context 1"` or `"buffer 7 (snare.wav)"`.
    public var object: String
    /// Why, in words, and what to do about it where there is something to do.
    public var reason: String

    /// Creates an error. SoundStage itself makes them through one internal helper
    /// (`ErrorNaming`), so that every operation is named the same way.
    public init(_ code: Code, operation: String, object: String, reason: String) {
        self.code = code
        self.operation = operation
        self.object = object
        self.reason = reason
    }

    /// One line: operation, object, code and reason.
    public var description: String {
        "\(operation) on \(object): \(code): \(reason)"
    }
}

extension SoundStageError.Code {
    /// Matches a thrown error by its code, so that `catch` can name a code alone:
    /// `catch SoundStageError.Code.decodingFailed { ... }`.
    public static func ~= (code: SoundStageError.Code, error: any Error) -> Bool {
        (error as? SoundStageError)?.code == code
    }
}
