import Foundation

/// The sample format of a written WAV file.
public enum WAVSampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed integers (clipped to full scale).
    case pcm16
    /// 32-bit floats (WAVE_FORMAT_IEEE_FLOAT).
    case float32
}

extension RenderedAudio {
    /// The WAV file bytes of this audio in `sampleFormat`.
    public func wavData(_ sampleFormat: WAVSampleFormat = .pcm16) -> Data {
        let channels = format.channels.channelCount
        let bytesPerSample = sampleFormat == .pcm16 ? 2 : 4
        let dataBytes = samples.count * bytesPerSample
        var data = Data(capacity: 44 + dataBytes)
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(36 + dataBytes); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16)
        u16(sampleFormat == .pcm16 ? 1 : 3); u16(channels); u32(format.sampleRate)
        u32(format.sampleRate * channels * bytesPerSample); u16(channels * bytesPerSample); u16(bytesPerSample * 8)
        data.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        let header = data.count
        data.count += dataBytes
        data.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress! + header
            samples.withUnsafeBufferPointer { input in
                switch sampleFormat {
                case .pcm16:
                    let ints = out.bindMemory(to: Int16.self, capacity: input.count)
                    for i in 0..<input.count {
                        ints[i] = Int16((max(-1, min(1, input[i])) * 32767).rounded()).littleEndian
                    }
                case .float32:
                    let bits = out.bindMemory(to: UInt32.self, capacity: input.count)
                    for i in 0..<input.count { bits[i] = input[i].bitPattern.littleEndian }
                }
            }
        }
        return data
    }

    /// Writes a WAV file; the file appears only when complete (written aside, then renamed).
    /// A destination that is not a regular file (`/dev/null`, a FIFO) is written in place, and
    /// a symbolic link's target is written.
    public func writeWAV(to url: URL, as sampleFormat: WAVSampleFormat = .pcm16) throws {
        do {
            try WholeFileWrite.write(wavData(sampleFormat), to: url)
        } catch {
            throw Self.failure(.fileAccess, "writeWAV(to:as:)", object: url.path, "cannot write the file (\(error.localizedDescription))")
        }
    }
}

extension RenderedAudio: ErrorNaming {
    package var errorObject: String { "rendered audio (\(format))" }
}
