import SoundStageCore
import SoundStageSession

/// The listener as the tick last read it, for audibility.
struct ListenerSnapshot: Equatable {
    var position = SIMD3<Float>.zero
    var gain: Float = 1
    var model = DistanceModel.inverseClamped
}
