import COpenAL
import Foundation
@testable import SoundStage
import SoundStageTestSupport

/// Whether OpenAL still knows these source and buffer names in `context`.
func aliveNames(_ context: AudioContext, sources: [UInt32], buffers: [UInt32]) throws -> (sources: Int, buffers: Int) {
    try OpenAL.withContext(context.handle) { _ in
        (sources.filter { alIsSource($0) != 0 }.count, buffers.filter { alIsBuffer($0) != 0 }.count)
    }
}
