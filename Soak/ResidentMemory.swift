import Foundation

/// The process's resident memory, from /proc/self/status.
enum ResidentMemory {
    /// VmRSS in bytes, or nil when /proc cannot be read.
    static var bytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}

/// Resident memory sampled through a run: flat after warm-up means the largest sample after
/// it is within the limit of the sample that ends it.
struct MemoryTrace {
    struct Sample {
        let seconds: Double
        let bytes: Int
    }

    let warmUpSeconds: Double
    private(set) var samples: [Sample] = []

    init(warmUpSeconds: Double) { self.warmUpSeconds = warmUpSeconds }

    mutating func sample(at seconds: Double) {
        if let bytes = ResidentMemory.bytes { samples.append(Sample(seconds: seconds, bytes: bytes)) }
    }

    /// The last sample of the warm-up.
    var afterWarmUp: Sample? { samples.last { $0.seconds <= warmUpSeconds } }

    /// How far resident memory rose above its level at the end of the warm-up, in bytes.
    var growth: Int? {
        guard let base = afterWarmUp else { return nil }
        let later = samples.filter { $0.seconds > warmUpSeconds }
        guard let top = later.map(\.bytes).max() else { return nil }
        return top - base.bytes
    }

    /// Growth from the end of the warm-up to the last sample.
    var endGrowth: Int? {
        guard let base = afterWarmUp, let last = samples.last, last.seconds > warmUpSeconds else { return nil }
        return last.bytes - base.bytes
    }
}
