/// The one place SoundStage's errors are made.
///
/// A type that throws conforms and says how messages name one of its objects
/// (``errorObject``); ``failure(_:_:_:)`` then fills in the operation uniformly as
/// `Type.member`, the way swift-system's `valueOrErrno` fills in `Errno`:
///
/// ```swift
/// throw failure(.invalidArgument, "seek(to:)", "time must be in 0...\(duration) s")
/// // Player.seek(to:) on player of sound (music.ogg): invalid argument: time must be ...
/// ```
package protocol ErrorNaming {
    /// How messages name this object, e.g. `source 5 in context 2`.
    var errorObject: String { get }
    /// The public type whose operations the messages name: the type itself by default; an
    /// internal type names the public one it works for (the voice pool, `AudioEngine`).
    static var errorTypeName: String { get }
}

extension ErrorNaming {
    /// An error of `code` from `member` of this object's type, for example `play()` or
    /// `set(gain)`; the operation reads `Type.member`.
    package func failure(_ code: SoundStageError.Code, _ member: String, _ reason: String) -> SoundStageError {
        SoundStageError(code, operation: Self.operationName(member), object: errorObject, reason: reason)
    }

    /// The same for a static member or an initializer, where there is no object yet:
    /// `object` names what was being made or looked for.
    package static func failure(_ code: SoundStageError.Code, _ member: String, object: String, _ reason: String) -> SoundStageError {
        SoundStageError(code, operation: operationName(member), object: object, reason: reason)
    }

    /// An error of `code` from `member` of another type acting on this object (an
    /// `UpdateBatch` setting a source's property).
    package func failure(_ code: SoundStageError.Code, of typeName: String, _ member: String, _ reason: String) -> SoundStageError {
        SoundStageError(code, operation: "\(typeName).\(member)", object: errorObject, reason: reason)
    }

    /// `Type.member`, e.g. `AudioSource.set(gain)`.
    package static func operationName(_ member: String) -> String { "\(errorTypeName).\(member)" }

    package static var errorTypeName: String { "\(Self.self)" }
}
