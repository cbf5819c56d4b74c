import SoundStageCore

/// The distance models as types, so that the tick's loop over every voice is made once for
/// each (generic specialization) with its model a constant, not a switch for every voice.
enum DistanceLaw {
    protocol Model { static var model: DistanceModel { get } }
    enum None: Model { static var model: DistanceModel { .none } }
    enum Inverse: Model { static var model: DistanceModel { .inverse } }
    enum InverseClamped: Model { static var model: DistanceModel { .inverseClamped } }
    enum Linear: Model { static var model: DistanceModel { .linear } }
    enum LinearClamped: Model { static var model: DistanceModel { .linearClamped } }
    enum Exponent: Model { static var model: DistanceModel { .exponent } }
    enum ExponentClamped: Model { static var model: DistanceModel { .exponentClamped } }
}
