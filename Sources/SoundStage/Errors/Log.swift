import Logging

/// Where SoundStage reports what it cannot throw: an error met on the service thread with
/// no player to tell, or one met while releasing an object.
///
/// Messages go through swift-log under the label `SoundStage`; a game routes them with
/// `LoggingSystem.bootstrap` (the default prints to standard error).
enum Log {
    static let logger = Logger(label: "SoundStage")

    /// Logs an error SoundStage could not hand to a caller.
    static func report(_ error: any Error) {
        logger.error("\(error)")
    }
}
