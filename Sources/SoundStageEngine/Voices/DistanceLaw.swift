import SoundStageCore

/// The distance models as types, so that the tick's loop over every voice is made once for
/// each (generic specialization) with its model a constant, not a switch for every voice;
/// and, for the models that have one, the model's gain for eight voices at once.
enum DistanceLaw {
    protocol Model {
        static var model: DistanceModel { get }
        /// Whether ``gain(distance:reference:maximum:rolloff:)`` is this model's.
        static var hasVectorForm: Bool { get }
        /// ``DistanceModel/gain(distance:referenceDistance:maxDistance:rolloff:)`` for eight
        /// voices: the same operations in the same order, lane by lane.
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float>
    }

    enum None: Model {
        static var model: DistanceModel { .none }
        static var hasVectorForm: Bool { true }
        @inline(__always)
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            SIMD8(repeating: 1)
        }
    }

    enum Inverse: Model {
        static var model: DistanceModel { .inverse }
        static var hasVectorForm: Bool { true }
        @inline(__always)
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            inverse(distance, reference, rolloff)
        }
    }

    enum InverseClamped: Model {
        static var model: DistanceModel { .inverseClamped }
        static var hasVectorForm: Bool { true }
        @inline(__always)
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            inverse(clamp(distance, reference, maximum), reference, rolloff)
        }
    }

    enum Linear: Model {
        static var model: DistanceModel { .linear }
        static var hasVectorForm: Bool { true }
        @inline(__always)
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            linear(distance, reference, maximum, rolloff)
        }
    }

    enum LinearClamped: Model {
        static var model: DistanceModel { .linearClamped }
        static var hasVectorForm: Bool { true }
        @inline(__always)
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            linear(clamp(distance, reference, maximum), reference, maximum, rolloff)
        }
    }

    /// The exponent models take `powf` for each voice: one at a time.
    enum Exponent: Model {
        static var model: DistanceModel { .exponent }
        static var hasVectorForm: Bool { false }
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            SIMD8(repeating: 1)
        }
    }

    enum ExponentClamped: Model {
        static var model: DistanceModel { .exponentClamped }
        static var hasVectorForm: Bool { false }
        static func gain(distance: SIMD8<Float>, reference: SIMD8<Float>, maximum: SIMD8<Float>, rolloff: SIMD8<Float>) -> SIMD8<Float> {
            SIMD8(repeating: 1)
        }
    }

    /// `min(max(d, ref), max)`, as the clamped models take the distance.
    @inline(__always)
    static func clamp(_ d: SIMD8<Float>, _ reference: SIMD8<Float>, _ maximum: SIMD8<Float>) -> SIMD8<Float> {
        pointwiseMin(pointwiseMax(d, reference), maximum)
    }

    /// `ref / (ref + rolloff (d - ref))`, 1 where that denominator is not positive.
    @inline(__always)
    static func inverse(_ d: SIMD8<Float>, _ reference: SIMD8<Float>, _ rolloff: SIMD8<Float>) -> SIMD8<Float> {
        let denominator = reference + rolloff * (d - reference)
        return (reference / denominator).replacing(with: 1, where: denominator .<= 0)
    }

    /// `max(0, 1 - rolloff (d - ref) / (max - ref))`, 1 where max is ref.
    @inline(__always)
    static func linear(_ d: SIMD8<Float>, _ reference: SIMD8<Float>, _ maximum: SIMD8<Float>, _ rolloff: SIMD8<Float>) -> SIMD8<Float> {
        let g = pointwiseMax(SIMD8(repeating: 0), 1 - rolloff * (d - reference) / (maximum - reference))
        return g.replacing(with: 1, where: maximum .== reference)
    }
}
