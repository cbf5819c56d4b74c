import COpenAL
import Foundation
import SoundStage
@testable import SoundStageCore
@testable import SoundStageSession
@testable import SoundStageRecording
@testable import SoundStageEngine
@testable import SoundStageScenes
import SoundStageTestSupport

/// Whether OpenAL still knows these source and buffer names in `context`.
func aliveNames(_ context: AudioContext, sources: [UInt32], buffers: [UInt32]) throws -> (sources: Int, buffers: Int) {
    try OpenAL.withContext(context.handle) { _ in
        (sources.filter { alIsSource($0) != 0 }.count, buffers.filter { alIsBuffer($0) != 0 }.count)
    }
}
