import Foundation

/// How a container (WAV, AIFF, CAF) stores its samples, and the one conversion from those
/// bytes to what a buffer holds, shared by every container.
enum StoredEncoding: Hashable, Sendable {
    /// Unsigned 8-bit PCM.
    case uint8
    /// Signed integer PCM of 8, 16, 24 or 32 bits.
    case int(bits: Int, bigEndian: Bool)
    /// IEEE float of 32 or 64 bits.
    case float(bits: Int, bigEndian: Bool)
    /// G.711 u-law.
    case muLaw
    /// G.711 a-law.
    case aLaw
    /// WAV IMA ADPCM in blocks of `framesPerBlock` frames.
    case imaWAV(framesPerBlock: Int)
    /// Microsoft ADPCM in blocks of `framesPerBlock` frames.
    case msADPCM(framesPerBlock: Int)
    /// Apple IMA4: packets of 64 frames, 34 bytes per channel.
    case appleIMA4

    /// Frames in one block (1 for PCM).
    var framesPerBlock: Int {
        switch self {
        case .imaWAV(let n), .msADPCM(let n): return n
        case .appleIMA4: return 64
        default: return 1
        }
    }

    /// Bytes in one block of `channels` channels.
    func bytesPerBlock(channels: Int) -> Int {
        switch self {
        case .uint8, .muLaw, .aLaw: return channels
        case .int(let bits, _), .float(let bits, _): return bits / 8 * channels
        case .imaWAV(let n): return channels * (4 + (n - 1) / 2)
        case .msADPCM(let n): return channels * (7 + (n - 2) / 2)
        case .appleIMA4: return 34 * channels
        }
    }

    /// The name `soundstage info` reports, e.g. `pcm-s16` or `ima4`.
    var name: String {
        switch self {
        case .uint8: return "pcm-u8"
        case .int(16, true): return "pcm-s16be"
        case .int(let bits, _): return "pcm-s\(bits)"
        case .float(let bits, _): return "float\(bits)"
        case .muLaw: return "mu-law"
        case .aLaw: return "a-law"
        case .imaWAV: return "ima-adpcm"
        case .msADPCM: return "ms-adpcm"
        case .appleIMA4: return "ima4"
        }
    }

    /// The encoding kept in a buffer when OpenAL Soft plays the stored bytes as they are.
    func native(_ layout: ChannelLayout) -> BufferFormat? {
        let encoding: SampleEncoding
        switch self {
        case .uint8: encoding = .uint8
        case .int(16, false): encoding = .int16
        case .float(32, false): encoding = .float32
        case .muLaw: encoding = .muLaw
        case .aLaw: encoding = .aLaw
        case .imaWAV(let n): encoding = .imaADPCM(framesPerBlock: n)
        case .msADPCM(let n): encoding = .msADPCM(framesPerBlock: n)
        default: return nil
        }
        let format = BufferFormat(encoding, layout)
        return format.alFormat == nil ? nil : format
    }

    /// The linear PCM format a conversion produces: uint8 for 8-bit, int16 for 16-bit, the
    /// laws and ADPCM, float32 for the rest.
    func linear(_ layout: ChannelLayout) -> BufferFormat {
        switch self {
        case .uint8, .int(8, _): return BufferFormat(.uint8, layout)
        case .int(16, _), .muLaw, .aLaw, .imaWAV, .msADPCM, .appleIMA4: return BufferFormat(.int16, layout)
        default: return BufferFormat(.float32, layout)
        }
    }

    /// Converts whole blocks of stored bytes. With `keepNative`, formats OpenAL Soft takes
    /// (8/16-bit PCM, float32, the laws, WAV ADPCM) come back as they are.
    ///
    /// - Returns: the bytes and their format; nil when float samples are not finite.
    func convert(_ raw: UnsafeRawBufferPointer, channels layout: ChannelLayout, keepNative: Bool) -> (bytes: [UInt8], format: BufferFormat)? {
        if keepNative, let native = native(layout) {
            if case .float = self, !Self.allFinite(raw) { return nil }
            return (Array(raw), native)
        }
        let format = linear(layout)
        let channels = layout.channelCount
        let blocks = raw.count / bytesPerBlock(channels: channels)
        let samples = blocks * framesPerBlock * channels
        switch format.encoding {
        case .uint8:
            return (raw.map { self == .uint8 ? $0 : $0 ^ 0x80 }, format)
        case .int16:
            var out = [Int16](repeating: 0, count: samples)
            out.withUnsafeMutableBufferPointer { dst in decode16(raw, channels: channels, blocks: blocks, into: dst.baseAddress!) }
            return (out.withUnsafeBytes { Array($0) }, format)
        default:
            var out = [Float](repeating: 0, count: samples)
            let width: Int
            switch self { case .int(let b, _), .float(let b, _): width = b / 8; default: width = 4 }
            let big: Bool
            switch self { case .int(_, let e), .float(_, let e): big = e; default: big = false }
            for k in 0..<samples {
                var v: UInt64 = 0
                for j in 0..<width { v = v << 8 | UInt64(raw[k * width + (big ? j : width - 1 - j)]) }
                switch self {
                case .float(32, _): out[k] = Float(bitPattern: UInt32(v))
                case .float: out[k] = Float(Double(bitPattern: v))
                default:
                    let shift = UInt64(64 - width * 8)
                    out[k] = Float(Int64(bitPattern: v << shift) >> Int64(shift)) / Float(UInt64(1) << UInt64(width * 8 - 1))
                }
            }
            guard out.allSatisfy(\.isFinite) else { return nil }
            return (out.withUnsafeBytes { Array($0) }, format)
        }
    }

    /// Decodes to 16-bit samples: 16-bit PCM, the laws and ADPCM.
    private func decode16(_ raw: UnsafeRawBufferPointer, channels: Int, blocks: Int, into out: UnsafeMutablePointer<Int16>) {
        let blockBytes = bytesPerBlock(channels: channels), perBlock = framesPerBlock * channels
        for b in 0..<blocks {
            let block = UnsafeRawBufferPointer(rebasing: raw[(b * blockBytes)..<((b + 1) * blockBytes)])
            let dst = out + b * perBlock
            switch self {
            case .int(16, let big):
                for k in 0..<channels {
                    let v = UInt16(block[2 * k]) | UInt16(block[2 * k + 1]) << 8
                    dst[k] = Int16(bitPattern: big ? v.byteSwapped : v)
                }
            case .muLaw: for k in 0..<channels { dst[k] = G711.muLaw(block[k]) }
            case .aLaw: for k in 0..<channels { dst[k] = G711.aLaw(block[k]) }
            case .imaWAV(let n): ADPCM.decodeIMABlock(block, channels: channels, frames: n, into: dst)
            case .msADPCM(let n): ADPCM.decodeMSBlock(block, channels: channels, frames: n, into: dst)
            case .appleIMA4: ADPCM.decodeAppleIMA4Packet(block, channels: channels, into: dst)
            default: break
            }
        }
    }

    private static func allFinite(_ raw: UnsafeRawBufferPointer) -> Bool {
        var ok = true
        for i in stride(from: 0, to: raw.count - 3, by: 4) where !raw.loadUnaligned(fromByteOffset: i, as: Float.self).isFinite {
            ok = false
            break
        }
        return ok
    }

    /// The stored encoding a buffer's own encoding corresponds to (buffers hold
    /// little-endian, native layouts).
    init(_ encoding: SampleEncoding) {
        switch encoding {
        case .uint8: self = .uint8
        case .int16: self = .int(bits: 16, bigEndian: false)
        case .float32: self = .float(bits: 32, bigEndian: false)
        case .muLaw: self = .muLaw
        case .aLaw: self = .aLaw
        case .imaADPCM(let n): self = .imaWAV(framesPerBlock: n)
        case .msADPCM(let n): self = .msADPCM(framesPerBlock: n)
        }
    }
}

extension BufferFormat {
    /// Any buffer bytes as interleaved Float32 in -1...1, decoding the laws and ADPCM.
    func floatSamples(_ bytes: [UInt8]) -> [Float] {
        bytes.withUnsafeBytes { floatSamples($0) }
    }

    /// ``floatSamples(_:)`` of bytes in place.
    func floatSamples(_ bytes: UnsafeRawBufferPointer) -> [Float] {
        let stored = StoredEncoding(encoding)
        let whole = bytes.count / bytesPerBlock * bytesPerBlock
        let linear = stored.convert(UnsafeRawBufferPointer(rebasing: bytes[0..<whole]), channels: channels, keepNative: false)
        guard let linear else { return [] }
        switch linear.format.encoding {
        case .uint8: return linear.bytes.map { (Float($0) - 128) / 128 }
        case .int16: return linear.bytes.withUnsafeBytes { $0.bindMemory(to: Int16.self).map { Float($0) / 32_768 } }
        default: return linear.bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
    }
}
