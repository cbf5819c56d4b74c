import Foundation

/// Indices of samples above `threshold` that start a new event (at least `gap` after the last).
package func onsets(_ samples: [Float], threshold: Float = 0.05, gap: Int = 64) -> [Int] {
    var result: [Int] = []
    for (i, s) in samples.enumerated() where abs(s) > threshold {
        if let last = result.last, i - last < gap { continue }
        result.append(i)
    }
    return result
}
