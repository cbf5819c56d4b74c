import Foundation

/// The tiers of the README's test command: `scripts/test.sh` runs the quick one, and
/// `scripts/test.sh --full` (CI) the full one, which adds the long runs.
package enum TestTier {
    /// Whether this run is the full tier (`SOUNDSTAGE_TIER=full`, set by `scripts/test.sh --full`).
    package static var isFull: Bool { ProcessInfo.processInfo.environment["SOUNDSTAGE_TIER"] == "full" }
}
