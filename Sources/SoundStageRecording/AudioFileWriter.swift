import SoundStageCore
import SoundStageSession

/// A sound file being written block by block, always readable: after every block the file on
/// disk is a valid file holding every block written so far (WAV and CAF rewrite their sizes
/// in place; Ogg pages stand alone), so a crash or a full disk leaves a playable file up to
/// the last block, never a corrupt one.
protocol AudioFileWriter: AnyObject {
    /// Appends interleaved samples in -1...1.
    func append(_ samples: [Float]) throws
    /// Completes the file (for Ogg: the last page) and closes it.
    func finish() throws
    /// Frames written so far.
    var framesWritten: Int { get }
}

