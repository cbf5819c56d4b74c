import COpenAL
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The seven OpenAL distance models: how a source's gain falls off with distance.
public enum DistanceModel: String, Sendable, CaseIterable, Hashable {
    /// No attenuation (`AL_NONE`).
    case none
    /// `ref / (ref + rolloff * (d - ref))` (`AL_INVERSE_DISTANCE`).
    case inverse
    /// Inverse with d clamped to ref...max (`AL_INVERSE_DISTANCE_CLAMPED`), OpenAL's default.
    case inverseClamped
    /// `1 - rolloff * (d - ref) / (max - ref)` (`AL_LINEAR_DISTANCE`).
    case linear
    /// Linear with d clamped to ref...max (`AL_LINEAR_DISTANCE_CLAMPED`).
    case linearClamped
    /// `(d / ref) ^ -rolloff` (`AL_EXPONENT_DISTANCE`).
    case exponent
    /// Exponent with d clamped to ref...max (`AL_EXPONENT_DISTANCE_CLAMPED`).
    case exponentClamped


    /// The gain this model gives at `distance`, as OpenAL computes it (before min/max gain).
    @inlinable public func gain(distance: Float, referenceDistance ref: Float, maxDistance max: Float, rolloff: Float) -> Float {
        var d = distance
        switch self {
        case .inverseClamped, .linearClamped, .exponentClamped:
            d = Swift.min(Swift.max(d, ref), max)
        default: break
        }
        switch self {
        case .none: return 1
        case .inverse, .inverseClamped:
            let denom = ref + rolloff * (d - ref)
            return denom > 0 ? ref / denom : 1
        case .linear, .linearClamped:
            guard max != ref else { return 1 }
            return Swift.max(0, 1 - rolloff * (d - ref) / (max - ref))
        case .exponent, .exponentClamped:
            guard d > 0, ref > 0 else { return 1 }
            return powf(d / ref, -rolloff)
        }
    }
}

extension DistanceModel: ALEnumeration {
    static let alValues: [(DistanceModel, Int32)] = [
        (.none, AL_NONE), (.inverse, AL_INVERSE_DISTANCE), (.inverseClamped, AL_INVERSE_DISTANCE_CLAMPED),
        (.linear, AL_LINEAR_DISTANCE), (.linearClamped, AL_LINEAR_DISTANCE_CLAMPED),
        (.exponent, AL_EXPONENT_DISTANCE), (.exponentClamped, AL_EXPONENT_DISTANCE_CLAMPED),
    ]
    static var fallback: DistanceModel { .inverseClamped }
}
