extension SampleEncoding {
    /// The byte every sample of silence is made of: 128 for unsigned 8-bit, G.711's codes
    /// for zero (0xFF u-law, 0xD5 a-law), 0 for the rest (an ADPCM block of zero bytes
    /// decodes to zeros: a zero header and zero nibbles never step away from 0).
    var silenceByte: UInt8 {
        switch self {
        case .uint8: return 0x80
        case .muLaw: return 0xFF
        case .aLaw: return 0xD5
        case .int16, .float32, .imaADPCM, .msADPCM: return 0
        }
    }
}

extension AudioBuffer {
    /// One block of silence (a frame of PCM, a block of ADPCM) in `buffer`'s format, at its
    /// rate, on its context: queued after a sound's last buffer where the mixer holds the
    /// last sample it played (``MixerSmoothing/holdsLastSample``), so what it holds is silence.
    package static func silence(like buffer: AudioBuffer) throws -> AudioBuffer {
        let format = buffer.format
        return try AudioBuffer(context: buffer.context,
                               bytes: [UInt8](repeating: format.encoding.silenceByte, count: format.bytesPerBlock),
                               format: format, sampleRate: buffer.sampleRate, label: "silence after " + buffer.description)
    }
}
