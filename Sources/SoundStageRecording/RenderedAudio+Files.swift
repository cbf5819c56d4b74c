import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SoundStageCore
import SoundStageSession

extension RenderedAudio {
    /// Writes the audio to a file of `container`, by default the one `url`'s extension names
    /// (`.wav`, `.caf`, `.ogg`), as a ``Recorder`` writes it: WAV and CAF with `bitDepth`-bit
    /// samples (16 or 24 integers, 32 floats), Ogg Vorbis at `quality` (-0.1...1). The file
    /// appears only when complete (written aside, then renamed); a destination that is not a
    /// regular file (`/dev/null`, a FIFO) is written in place, as WAV unless a container is
    /// given. A symbolic link's target is written.
    ///
    /// - Throws: ``SoundStageError/Code-swift.struct/invalidArgument`` for a file name whose
    ///   extension names no format SoundStage writes, a bit depth or quality out of range, or
    ///   more than 8 channels; ``SoundStageError/Code-swift.struct/fileAccess`` when the file
    ///   cannot be written.
    public func write(to url: URL, container: RecordingContainer? = nil, bitDepth: Int = 16, quality: Float = 0.5) throws {
        let member = "write(to:container:bitDepth:quality:)"
        do {
            let output = try AudioFileOutput(url: url, format: format, container: container, bitDepth: bitDepth, quality: quality)
            // A second at a time: the WAV and CAF writers rewrite their sizes after each block.
            let block = max(1, format.sampleRate) * format.channels.channelCount
            var start = 0
            while start < samples.count {
                try output.append(samples: Array(samples[start..<min(samples.count, start + block)]))
                start += block
            }
            try output.finish()
        } catch let error as SoundStageError {
            throw SoundStageError(error.code, operation: Self.operationName(member), object: error.code == .fileAccess ? url.path : errorObject,
                                  reason: error.reason)
        }
    }
}
