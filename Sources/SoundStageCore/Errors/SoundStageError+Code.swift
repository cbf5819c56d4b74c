extension SoundStageError {
    /// What went wrong, as a value `catch` clauses can match.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric value. OpenAL (`AL_*`) and ALC (`ALC_*`) error codes keep their
        /// C values (ALC's offset by 0x1000, since the two overlap); SoundStage's own codes
        /// live in `0x5500...`.
        public var rawValue: Int32
        /// Creates a code from its raw value.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// `AL_INVALID_NAME`: OpenAL did not know the object's name.
        public static let alInvalidName = Code(rawValue: 0xA001)
        /// `AL_INVALID_ENUM`: OpenAL did not know the parameter.
        public static let alInvalidEnum = Code(rawValue: 0xA002)
        /// `AL_INVALID_VALUE`: OpenAL rejected a value.
        public static let alInvalidValue = Code(rawValue: 0xA003)
        /// `AL_INVALID_OPERATION`: OpenAL refused the operation in the current state.
        public static let alInvalidOperation = Code(rawValue: 0xA004)
        /// `AL_OUT_OF_MEMORY`: OpenAL could not allocate.
        public static let alOutOfMemory = Code(rawValue: 0xA005)
        /// `ALC_INVALID_DEVICE`.
        public static let alcInvalidDevice = Code(rawValue: 0xA001 + 0x1000)
        /// `ALC_INVALID_CONTEXT`.
        public static let alcInvalidContext = Code(rawValue: 0xA002 + 0x1000)
        /// `ALC_INVALID_ENUM`.
        public static let alcInvalidEnum = Code(rawValue: 0xA003 + 0x1000)
        /// `ALC_INVALID_VALUE`.
        public static let alcInvalidValue = Code(rawValue: 0xA004 + 0x1000)
        /// `ALC_OUT_OF_MEMORY`.
        public static let alcOutOfMemory = Code(rawValue: 0xA005 + 0x1000)

        /// No output device could be opened (no sound server, no sound card).
        public static let noOutputDevice = Code(rawValue: 0x5501)
        /// A named device does not exist.
        public static let deviceNotFound = Code(rawValue: 0x5502)
        /// The requested format is not supported (a loopback render format, a buffer format).
        public static let unsupportedFormat = Code(rawValue: 0x5503)
        /// An argument was out of range or malformed; ``SoundStageError/reason`` says which.
        public static let invalidArgument = Code(rawValue: 0x5504)
        /// The context's source limit is reached; release a source or ask for more.
        public static let sourceLimitReached = Code(rawValue: 0x5505)
        /// The operation is not allowed in the object's current state (for example
        /// changing the buffer of a playing source).
        public static let invalidState = Code(rawValue: 0x5506)
        /// An OpenAL or ALC extension the operation needs is missing.
        public static let extensionMissing = Code(rawValue: 0x5507)
        /// Two objects from different devices or contexts were combined.
        public static let wrongContext = Code(rawValue: 0x5508)
        /// A property is read-only.
        public static let readOnly = Code(rawValue: 0x5509)
        /// A file or in-memory sound could not be read or decoded.
        public static let decodingFailed = Code(rawValue: 0x550A)
        /// A file could not be opened, read or written.
        public static let fileAccess = Code(rawValue: 0x550B)
        /// A voice was not started: its sound's rules (instance limit, retrigger interval) or
        /// a full pool refused it; ``SoundStageError/reason`` says which. `AudioEngine.play`
        /// no longer throws it: a refused play returns a ``Voice`` whose ``Voice/refusal``
        /// says why.
        public static let voiceRefused = Code(rawValue: 0x550C)
        /// The voice has ended (finished, stopped, stolen or culled); the reason says which.
        public static let voiceEnded = Code(rawValue: 0x550D)
        /// A device went away while in use (unplugged, its sound server gone).
        public static let deviceLost = Code(rawValue: 0x550E)
        /// The object's device was closed: its engine was shut down (``AudioEngine/shutdown()``)
        /// or the device closed (``AudioDevice/close()``). Make a new engine to play again.
        public static let deviceClosed = Code(rawValue: 0x550F)
        /// A library a feature needs could not be loaded (SoundStage opens the optional ones,
        /// such as libFLAC, the first time they are needed); the reason names the feature,
        /// the library and the package that provides it.
        public static let libraryMissing = Code(rawValue: 0x5510)
        /// The system music player could not do what was asked: no session bus, no MPRIS
        /// player, or the player refused or did not answer in time; the reason says which.
        public static let musicPlayerUnavailable = Code(rawValue: 0x5511)

        /// A readable name for the code.
        public var description: String {
            switch self {
            case .alInvalidName: return "AL_INVALID_NAME"
            case .alInvalidEnum: return "AL_INVALID_ENUM"
            case .alInvalidValue: return "AL_INVALID_VALUE"
            case .alInvalidOperation: return "AL_INVALID_OPERATION"
            case .alOutOfMemory: return "AL_OUT_OF_MEMORY"
            case .alcInvalidDevice: return "ALC_INVALID_DEVICE"
            case .alcInvalidContext: return "ALC_INVALID_CONTEXT"
            case .alcInvalidEnum: return "ALC_INVALID_ENUM"
            case .alcInvalidValue: return "ALC_INVALID_VALUE"
            case .alcOutOfMemory: return "ALC_OUT_OF_MEMORY"
            case .noOutputDevice: return "no output device"
            case .deviceNotFound: return "device not found"
            case .unsupportedFormat: return "unsupported format"
            case .invalidArgument: return "invalid argument"
            case .sourceLimitReached: return "source limit reached"
            case .invalidState: return "invalid state"
            case .extensionMissing: return "extension missing"
            case .wrongContext: return "wrong context"
            case .readOnly: return "read-only"
            case .decodingFailed: return "decoding failed"
            case .fileAccess: return "file access"
            case .voiceRefused: return "voice refused"
            case .voiceEnded: return "voice ended"
            case .deviceLost: return "device lost"
            case .deviceClosed: return "device closed"
            case .libraryMissing: return "library missing"
            case .musicPlayerUnavailable: return "music player unavailable"
            default: return "error 0x\(String(rawValue, radix: 16))"
            }
        }

        /// Maps an `alGetError` value.
        static func al(_ code: Int32) -> Code { Code(rawValue: code) }
        /// Maps an `alcGetError` value (ALC codes overlap AL's, so they are offset).
        static func alc(_ code: Int32) -> Code { Code(rawValue: code + 0x1000) }
    }
}
