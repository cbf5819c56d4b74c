import CALUT
import COpenAL
#if canImport(Glibc)
import Glibc
#endif

/// freealut must be initialised once (without a context of its own) before it generates.
private let alutReady: Bool = alutInitWithoutContext(nil, nil) != 0

extension Waveform {
    /// The freealut waveform (`ALUT_WAVEFORM_*`).
    fileprivate var alutValue: Int32 {
        switch self {
        case .sine: return ALUT_WAVEFORM_SINE
        case .square: return ALUT_WAVEFORM_SQUARE
        case .sawtooth: return ALUT_WAVEFORM_SAWTOOTH
        case .whiteNoise: return ALUT_WAVEFORM_WHITENOISE
        case .impulse: return ALUT_WAVEFORM_IMPULSE
        }
    }
}

extension AudioBuffer {
    /// The rate SoundStage generates its own sine at, as freealut generates its waveforms.
    static let waveformSampleRate = 44_100

    /// A buffer holding a waveform: mono, full scale, at 44.1 kHz.
    ///
    /// Square, sawtooth, white noise and impulse come from freealut
    /// (`alutLoadMemoryWaveform`). freealut 1.1.0 (Debian 12) generates its sine as a
    /// rectified sine, |sin(pi f t)|, which never goes negative and whose crests repeat at f,
    /// so SoundStage generates the sine itself (``Waveform/samples(frequency:seconds:sampleRate:amplitude:phase:)``),
    /// in the same form: 16-bit, full scale.
    ///
    /// - Parameters:
    ///   - context: the context whose device holds the buffer.
    ///   - waveform: sine, square, sawtooth, white noise or impulse.
    ///   - frequency: cycles per second, above 0 and at most 20000.
    ///   - phase: start phase in degrees, -180...180.
    ///   - duration: seconds, above 0 and at most 600.
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for values out of
    ///   range, ``SoundStageError/Code-swift.struct/decodingFailed`` when freealut fails.
    public convenience init(context: AudioContext, waveform: Waveform, frequency: Float, phase: Float = 0, duration: Float) throws {
        let label = "\(waveform.rawValue) \(frequency) Hz"
        let member = "init(context:waveform:frequency:phase:duration:)"
        func invalid(_ reason: String) -> SoundStageError { Self.failure(.invalidArgument, member, object: label, reason) }
        guard frequency.isFinite, Limits.toneFrequencies.contains(frequency) else { throw invalid("frequency must be above 0 and at most \(Limits.toneFrequencies.upperBound) Hz, got \(frequency)") }
        guard phase.isFinite, (-180...180).contains(phase) else { throw invalid("phase must be in -180...180 degrees, got \(phase)") }
        guard duration.isFinite, Limits.toneSeconds.contains(Double(duration)) else { throw invalid("duration must be above 0 and at most \(Limits.toneSeconds.upperBound) s, got \(duration)") }
        if waveform == .sine {
            let rate = Self.waveformSampleRate
            let samples = waveform.samples(frequency: frequency, seconds: Double(duration), sampleRate: rate, amplitude: 1, phase: phase)
            try self.init(context: context, samples: samples.map { Int16(($0 * 32_767).rounded()) }, sampleRate: rate, label: label)
            return
        }
        // freealut checks for a current OpenAL context before it generates anything.
        typealias Tone = (bytes: [UInt8], format: BufferFormat, rate: Int)
        let generated: Result<Tone, SoundStageError> = try OpenAL.withContext(context.handle) { _ in
            func failure(_ reason: String) -> Result<Tone, SoundStageError> {
                .failure(Self.failure(.decodingFailed, member, object: label, reason))
            }
            guard alutReady else { return failure("freealut did not initialise") }
            var format: ALenum = 0, size: ALsizei = 0, rate: ALfloat = 0
            guard let data = alutLoadMemoryWaveform(waveform.alutValue, frequency, phase, duration, &format, &size, &rate) else {
                return failure("alutLoadMemoryWaveform: " + String(cString: alutGetErrorString(alutGetError())))
            }
            defer { free(data) }
            let encoding: SampleEncoding
            switch format {
            case AL_FORMAT_MONO8: encoding = .uint8
            case AL_FORMAT_MONO16: encoding = .int16
            default: return failure("freealut returned format 0x\(String(format, radix: 16)), not mono PCM")
            }
            return .success((Array(UnsafeRawBufferPointer(start: data, count: Int(size))), BufferFormat(encoding, .mono), Int(rate)))
        }
        let tone = try generated.get()
        try self.init(context: context, bytes: tone.bytes, format: tone.format, sampleRate: tone.rate, label: label)
    }
}
