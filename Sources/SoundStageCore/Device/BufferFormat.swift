import COpenAL

/// How the samples of a buffer are encoded.
public enum SampleEncoding: Sendable, Hashable, CustomStringConvertible {
    /// Unsigned 8-bit PCM, silence at 128.
    case uint8
    /// Signed 16-bit PCM, native byte order.
    case int16
    /// 32-bit float PCM in -1...1 (`AL_EXT_FLOAT32`).
    case float32
    /// 8-bit G.711 u-law (`AL_EXT_MULAW`).
    case muLaw
    /// 8-bit G.711 a-law (`AL_EXT_ALAW`).
    case aLaw
    /// IMA ADPCM in blocks of `framesPerBlock` frames (`AL_EXT_IMA4` with
    /// `AL_SOFT_block_alignment`); a block is `4 * channels` header bytes then the nibbles.
    case imaADPCM(framesPerBlock: Int)
    /// Microsoft ADPCM in blocks of `framesPerBlock` frames (`AL_SOFT_MSADPCM`).
    case msADPCM(framesPerBlock: Int)

    /// Bits per sample as a WAV header would state them.
    public var bitsPerSample: Int {
        switch self {
        case .uint8, .muLaw, .aLaw: return 8
        case .int16: return 16
        case .float32: return 32
        case .imaADPCM, .msADPCM: return 4
        }
    }

    /// For example `int16` or `ima-adpcm(1017 frames/block)`.
    public var description: String {
        switch self {
        case .uint8: return "uint8"
        case .int16: return "int16"
        case .float32: return "float32"
        case .muLaw: return "mu-law"
        case .aLaw: return "a-law"
        case .imaADPCM(let n): return "ima-adpcm(\(n) frames/block)"
        case .msADPCM(let n): return "ms-adpcm(\(n) frames/block)"
        }
    }
}

/// The format of a buffer's samples: encoding and channel layout.
public struct BufferFormat: Sendable, Hashable, CustomStringConvertible {
    /// How samples are encoded.
    public var encoding: SampleEncoding
    /// The channel layout.
    public var channels: ChannelLayout

    /// Creates a format.
    public init(_ encoding: SampleEncoding, _ channels: ChannelLayout) {
        self.encoding = encoding
        self.channels = channels
    }

    /// For example `int16 stereo`.
    public var description: String { "\(encoding) \(channels.rawValue)" }

    /// Frames in one block: 1 for PCM and the G.711 laws, the block length for ADPCM.
    public var framesPerBlock: Int {
        switch encoding {
        case .imaADPCM(let n), .msADPCM(let n): return n
        default: return 1
        }
    }

    /// Bytes in one block (one frame for PCM).
    public var bytesPerBlock: Int {
        let c = channels.channelCount
        switch encoding {
        case .uint8, .muLaw, .aLaw: return c
        case .int16: return 2 * c
        case .float32: return 4 * c
        case .imaADPCM(let n): return c * (4 + (n - 1) / 2)   // 4-byte header, then n-1 nibbles
        case .msADPCM(let n): return c * (7 + (n - 2) / 2)    // 7-byte header (2 frames), then n-2 nibbles
        }
    }

    /// Why OpenAL Soft would refuse this block size, or nil when it is fine.
    var blockAlignmentProblem: String? {
        switch encoding {
        case .imaADPCM(let n) where n < 9 || (n - 1) % 8 != 0:
            return "IMA ADPCM blocks must hold 8k+1 frames (9, 17, ... 65, ... 1017), got \(n)"
        case .msADPCM(let n) where n < 2 || n % 2 != 0:
            return "MS ADPCM blocks must hold an even number of frames, got \(n)"
        default:
            return nil
        }
    }

    /// The OpenAL format enum and the extension that format needs, nil when OpenAL Soft has
    /// no such format (ADPCM and the G.711 laws in layouts beyond the ones below).
    var alFormat: (format: Int32, extension: String?)? {
        switch (encoding, channels) {
        case (.uint8, .mono): return (AL_FORMAT_MONO8, nil)
        case (.uint8, .stereo): return (AL_FORMAT_STEREO8, nil)
        case (.int16, .mono): return (AL_FORMAT_MONO16, nil)
        case (.int16, .stereo): return (AL_FORMAT_STEREO16, nil)
        case (.float32, .mono): return (AL_FORMAT_MONO_FLOAT32, "AL_EXT_FLOAT32")
        case (.float32, .stereo): return (AL_FORMAT_STEREO_FLOAT32, "AL_EXT_FLOAT32")
        case (.uint8, .rear): return (AL_FORMAT_REAR8, "AL_EXT_MCFORMATS")
        case (.int16, .rear): return (AL_FORMAT_REAR16, "AL_EXT_MCFORMATS")
        case (.float32, .rear): return (AL_FORMAT_REAR32, "AL_EXT_MCFORMATS")
        case (.uint8, .quad): return (AL_FORMAT_QUAD8, "AL_EXT_MCFORMATS")
        case (.int16, .quad): return (AL_FORMAT_QUAD16, "AL_EXT_MCFORMATS")
        case (.float32, .quad): return (AL_FORMAT_QUAD32, "AL_EXT_MCFORMATS")
        case (.uint8, .surround51): return (AL_FORMAT_51CHN8, "AL_EXT_MCFORMATS")
        case (.int16, .surround51): return (AL_FORMAT_51CHN16, "AL_EXT_MCFORMATS")
        case (.float32, .surround51): return (AL_FORMAT_51CHN32, "AL_EXT_MCFORMATS")
        case (.uint8, .surround61): return (AL_FORMAT_61CHN8, "AL_EXT_MCFORMATS")
        case (.int16, .surround61): return (AL_FORMAT_61CHN16, "AL_EXT_MCFORMATS")
        case (.float32, .surround61): return (AL_FORMAT_61CHN32, "AL_EXT_MCFORMATS")
        case (.uint8, .surround71): return (AL_FORMAT_71CHN8, "AL_EXT_MCFORMATS")
        case (.int16, .surround71): return (AL_FORMAT_71CHN16, "AL_EXT_MCFORMATS")
        case (.float32, .surround71): return (AL_FORMAT_71CHN32, "AL_EXT_MCFORMATS")
        case (.muLaw, .mono): return (AL_FORMAT_MONO_MULAW, "AL_EXT_MULAW")
        case (.muLaw, .stereo): return (AL_FORMAT_STEREO_MULAW, "AL_EXT_MULAW")
        case (.muLaw, .rear): return (AL_FORMAT_REAR_MULAW, "AL_EXT_MULAW_MCFORMATS")
        case (.muLaw, .quad): return (AL_FORMAT_QUAD_MULAW, "AL_EXT_MULAW_MCFORMATS")
        case (.muLaw, .surround51): return (AL_FORMAT_51CHN_MULAW, "AL_EXT_MULAW_MCFORMATS")
        case (.muLaw, .surround61): return (AL_FORMAT_61CHN_MULAW, "AL_EXT_MULAW_MCFORMATS")
        case (.muLaw, .surround71): return (AL_FORMAT_71CHN_MULAW, "AL_EXT_MULAW_MCFORMATS")
        case (.aLaw, .mono): return (AL_FORMAT_MONO_ALAW_EXT, "AL_EXT_ALAW")
        case (.aLaw, .stereo): return (AL_FORMAT_STEREO_ALAW_EXT, "AL_EXT_ALAW")
        case (.imaADPCM, .mono): return (AL_FORMAT_MONO_IMA4, "AL_EXT_IMA4")
        case (.imaADPCM, .stereo): return (AL_FORMAT_STEREO_IMA4, "AL_EXT_IMA4")
        case (.msADPCM, .mono): return (AL_FORMAT_MONO_MSADPCM_SOFT, "AL_SOFT_MSADPCM")
        case (.msADPCM, .stereo): return (AL_FORMAT_STEREO_MSADPCM_SOFT, "AL_SOFT_MSADPCM")
        default: return nil
        }
    }
}
