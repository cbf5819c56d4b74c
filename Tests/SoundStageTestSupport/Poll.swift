import Foundation

/// Waiting for an event the test can only observe from outside (a line of output, a screen, a
/// sink's state, a file's length): the condition is checked every `interval` until it holds or
/// `seconds` pass. The one way tests wait; a bare sleep in a test is a scenario's duration (the
/// time a sound is left to play), and says so where it stands.
package enum Poll {
    /// Checks `condition` until it holds, for up to `seconds`; returns whether it held. It is
    /// checked once more at the deadline, so a thread scheduled late on a loaded machine still
    /// sees an event that came in time.
    @discardableResult
    package static func until(seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return try condition()
    }

    /// The first non-nil value of `probe`, for up to `seconds`.
    package static func value<T>(seconds: Double, every interval: Double = 0.02, _ probe: () throws -> T?) rethrows -> T? {
        var found: T?
        try until(seconds: seconds, every: interval) { found = try probe(); return found != nil }
        return found
    }

    /// ``until(seconds:every:_:)``, suspending rather than blocking (a blocked thread is one of
    /// the test runner's few).
    package static func suspending(seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .seconds(interval))
        }
        return try condition()
    }
}
