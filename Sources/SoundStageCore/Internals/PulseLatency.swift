#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The latency an output device's stream asks of the sound server (a latency mode's), through
/// libpulse's `PULSE_LATENCY_MSEC`, which libpulse reads each time a stream connects: set for
/// the OpenAL call that makes the device's stream, and emptied right after (libpulse ignores an
/// empty value), so no other stream (a recording, a child process's) is asked for it.
///
/// The variable is put in the environment once, empty, before OpenAL's first call, so that
/// setting it later replaces its value in place: glibc's `setenv` then does not move the
/// environment under a thread that reads it. A process that had set it keeps it.
enum PulseLatency {
    static let variable = "PULSE_LATENCY_MSEC"

    /// The process's own value, if it set one before SoundStage's first OpenAL call.
    private static let processValue: String? = {
        guard let own = getenv(variable), own.pointee != 0 else { return nil }
        return String(cString: own)
    }()

    /// Called once, before the first OpenAL call (``OpenALConfiguration/apply()``).
    static func prepare() {
        if processValue == nil { setenv(variable, "", 1) }
    }

    /// The value the process set itself, which every mode leaves as it is.
    static var setByProcess: String? { processValue }

    /// The process's own value in milliseconds, when it is one the periods check needs
    /// (``milliseconds(parsing:)``).
    static var processMilliseconds: Int? { processValue.flatMap(milliseconds(parsing:)) }

    /// `value` as milliseconds the periods check looks at: a whole number in 1...60,000. A
    /// larger one (even `Int.max`, which the checks' arithmetic would overflow on) gives
    /// periods far above the 128 frames the reverb needs, and is left to libpulse as it is.
    static func milliseconds(parsing value: String) -> Int? {
        guard let number = Int(value), (1...60_000).contains(number) else { return nil }
        return number
    }

    /// Runs `body` (an OpenAL call that makes a device's stream) with `milliseconds` of buffer
    /// asked of the server (a latency mode's, or milliseconds in place of the process's own
    /// value; nil: nothing asked, or the process's value), and the variable as it was after.
    /// Inside a round trip (`DeviceRoundTrip`): the environment is the process's, and no two
    /// calls set it at once.
    static func asking<T>(_ milliseconds: Int?, _ body: () throws -> T) rethrows -> T {
        // OpenAL Soft asks for the periods its device last had: after a mode, asking nothing
        // would keep that mode's. A device reset always asks for its mode (nil only at creation).
        guard let milliseconds else { return try body() }
        setenv(variable, String(milliseconds), 1)
        defer { setenv(variable, processValue ?? "", 1) }
        // The server then asks for a start threshold, which OpenAL Soft 1.19.1 meets and logs as
        // an error nonetheless: ``OpenALLog`` leaves that line out.
        return try body()
    }
}
