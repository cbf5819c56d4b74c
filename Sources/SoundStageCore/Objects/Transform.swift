/// A 4x4 transform in column-major order, as game engines keep them: columns 0, 1 and 2 are
/// the local X (right), Y (up) and Z (back) axes, column 3 the translation.
public struct Transform: Sendable, Hashable {
    /// The four columns.
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// Creates a transform from its columns.
    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.columns = columns
    }

    /// The identity transform.
    public static let identity = Transform(columns: ([1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]))

    /// The translation (column 3).
    public var position: SIMD3<Float> { SIMD3(columns.3.x, columns.3.y, columns.3.z) }
    /// The facing: forward is -Z (minus column 2), up is +Y (column 1), the OpenGL and
    /// OpenAL convention.
    public var orientation: Orientation {
        Orientation(forward: -SIMD3(columns.2.x, columns.2.y, columns.2.z), up: SIMD3(columns.1.x, columns.1.y, columns.1.z))
    }

    /// Compares the sixteen values.
    public static func == (a: Transform, b: Transform) -> Bool {
        a.columns.0 == b.columns.0 && a.columns.1 == b.columns.1 && a.columns.2 == b.columns.2 && a.columns.3 == b.columns.3
    }

    /// Hashes the sixteen values.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns.0); hasher.combine(columns.1); hasher.combine(columns.2); hasher.combine(columns.3)
    }
}
