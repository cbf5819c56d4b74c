import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A C pointer (an `ALCdevice*` or `ALCcontext*`) kept only as an identity.
///
/// It is dereferenced by OpenAL alone, and only under ``OpenAL/lock``.
struct CHandle: @unchecked Sendable, Hashable {
    let raw: OpaquePointer
}

/// A recursive mutex. `@unchecked Sendable` because its only state is the pthread mutex.
///
/// Recursive because releasing the last reference to an OpenAL object runs its `deinit`,
/// which deletes the OpenAL name under this lock, and that can happen while the lock is held
/// (a source dropping the buffer it played, for example).
final class RecursiveMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always)
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// The single checked gateway to OpenAL.
///
/// OpenAL keeps one error state per context (and one per device for ALC) and one current
/// context per process, so every SoundStage call into OpenAL runs under ``lock``: the call,
/// the context switch it needs and the `alGetError` that checks it happen together, and no
/// other thread's error can be read in between.
enum OpenAL {
    /// Held around every OpenAL call and its error check.
    static let lock = RecursiveMutex()

    /// Runs `body` under the lock with `context` current. `body` makes AL calls through
    /// ``call(_:on:_:)`` so that each is checked.
    ///
    /// Calls nest (a `deinit` run inside `body` deletes its own names in its own context);
    /// the context that was current before is made current again afterwards.
    @inline(__always)
    static func withContext<R>(
        _ context: CHandle, _ body: () throws -> R
    ) throws -> R {
        try lock.withLock {
            let previous = alcGetCurrentContext()
            let nested = depth > 0
            if previous != context.raw { try makeCurrentLocked(context) }
            depth += 1
            defer {
                depth -= 1
                // Only a nested call restores: the outer call's context is kept alive by the
                // object that call works on. At the outermost level the context simply stays
                // current, since the one before may be gone by the time the body returns.
                if nested, let previous, previous != context.raw { _ = alcMakeContextCurrent(previous) }
            }
            return try body()
        }
    }

    /// How many ``withContext(_:_:)`` calls are running on the thread holding ``lock``.
    /// Read and written only under the lock.
    nonisolated(unsafe) static var depth = 0

    /// Makes `context` current if it is not. Must be called with ``lock`` held.
    @inline(__always)
    static func makeCurrentLocked(_ context: CHandle) throws {
        if alcGetCurrentContext() != context.raw {
            if alcMakeContextCurrent(context.raw) == ALC_FALSE {
                throw SoundStageError(
                    .alcInvalidContext, operation: "alcMakeContextCurrent",
                    object: "context \(context.raw)", reason: "OpenAL refused to make the context current")
            }
        }
    }

    /// Runs ALC-only work (device queries, rendering) under the lock.
    @inline(__always)
    static func withDevice<R>(_ body: () throws -> R) rethrows -> R {
        try lock.withLock(body)
    }

    /// Calls an AL function and checks `alGetError` right after it. Only valid inside
    /// ``withContext(_:_:)``.
    @inline(__always)
    static func call<R>(
        _ operation: @autoclosure () -> String,
        on object: @autoclosure () -> String,
        _ body: () -> R
    ) throws -> R {
        let result = body()
        let error = alGetError()
        if error != AL_NO_ERROR {
            throw SoundStageError(
                .al(error), operation: operation(), object: object(),
                reason: "OpenAL reported \(SoundStageError.Code.al(error)); SoundStage should have caught this first, please report it")
        }
        return result
    }

    /// Calls an ALC function on `device` and checks `alcGetError(device)` right after it.
    /// Only valid under ``lock``.
    @inline(__always)
    static func callALC<R>(
        _ device: OpaquePointer?,
        _ operation: @autoclosure () -> String,
        on object: @autoclosure () -> String,
        _ body: () -> R
    ) throws -> R {
        let result = body()
        let error = alcGetError(device)
        if error != ALC_NO_ERROR {
            throw SoundStageError(
                .alc(error), operation: operation(), object: object(),
                reason: "OpenAL reported \(SoundStageError.Code.alc(error))")
        }
        return result
    }

    /// Reads a C string OpenAL owns. Only valid under ``lock``.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    /// Splits an ALC list (strings separated by NUL, ended by two NULs).
    static func stringList(_ pointer: UnsafePointer<CChar>?) -> [String] {
        guard var p = pointer else { return [] }
        var result: [String] = []
        while p.pointee != 0 {
            let s = String(cString: p)
            result.append(s)
            p += strlen(p) + 1
        }
        return result
    }
}

/// Checks a float for the validators: finite and within `range`.
func check(_ value: Float, _ range: ClosedRange<Float>, _ what: String) -> String? {
    if !value.isFinite { return "\(what) must be finite, got \(value)" }
    if !range.contains(value) {
        if range.upperBound == .greatestFiniteMagnitude {
            return "\(what) must be at least \(range.lowerBound), got \(value)"
        }
        return "\(what) must be in \(range.lowerBound)...\(range.upperBound), got \(value)"
    }
    return nil
}

/// Checks every component of a vector is finite.
func checkFinite(_ value: SIMD3<Float>, _ what: String) -> String? {
    if !(value.x.isFinite && value.y.isFinite && value.z.isFinite) {
        return "\(what) must be finite, got \(value)"
    }
    return nil
}
