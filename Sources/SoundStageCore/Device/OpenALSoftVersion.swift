/// The OpenAL Soft release behind an `AL_VERSION` string.
package struct OpenALSoftVersion: Sendable, Hashable, Comparable {
    package var major: Int
    package var minor: Int
    package var patch = 0

    /// The oldest release SoundStage supports, taken for a version string it cannot read.
    package static let oldest = OpenALSoftVersion(major: 1, minor: 19, patch: 1)

    package init(major: Int, minor: Int, patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `1.1 ALSOFT 1.19.1`; nil for a string that names no OpenAL Soft release.
    package init?(_ version: String) {
        let parts = version.split(separator: " ")
        guard let at = parts.firstIndex(of: "ALSOFT"), at + 1 < parts.count else { return nil }
        let numbers = parts[at + 1].split(separator: ".").map { Int($0.prefix { $0.isNumber }) }
        guard numbers.count >= 2, let major = numbers[0], let minor = numbers[1] else { return nil }
        self.init(major: major, minor: minor, patch: numbers.count > 2 ? numbers[2] ?? 0 : 0)
    }

    package static func < (a: Self, b: Self) -> Bool { (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch) }
}
