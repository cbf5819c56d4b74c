/// Takes frames from one channel layout to another, by a matrix worked out from the channels'
/// names (``ChannelLayout/channelNames``):
///
/// - the same layout: copied;
/// - to mono: the average of every channel but the LFE;
/// - from mono: to the front left and right (or the one channel of another mono layout);
/// - to stereo from a wider layout: the ITU-R BS.775 downmix (each side plus 0.7071 of the
///   centre and of the surrounds on its side; the LFE is dropped);
/// - otherwise each channel goes to the one of the same name, and channels the target lacks
///   go to the nearest front side (a rear pair to front left and right).
struct ChannelMixer: Sendable {
    let from: ChannelLayout
    let to: ChannelLayout
    /// `to.channelCount` rows of `from.channelCount` weights.
    let matrix: [[Float]]

    var isIdentity: Bool { from == to }

    init(from: ChannelLayout, to: ChannelLayout) {
        self.from = from
        self.to = to
        let inNames = from.channelNames, outNames = to.channelNames
        var m = [[Float]](repeating: [Float](repeating: 0, count: inNames.count), count: outNames.count)
        if from == to {
            for i in inNames.indices { m[i][i] = 1 }
        } else if outNames.count == 1 {
            let counted = inNames.indices.filter { inNames[$0] != "LFE" }
            for i in counted { m[0][i] = 1 / Float(counted.count) }
        } else if inNames.count == 1 {
            for (o, name) in outNames.enumerated() where Self.isFrontLeft(name) || Self.isFrontRight(name) { m[o][0] = 1 }
        } else {
            let half: Float = 0.70710678
            for (i, name) in inNames.enumerated() {
                if let o = outNames.firstIndex(of: name), to != .stereo || Self.isFrontLeft(name) || Self.isFrontRight(name) {
                    m[o][i] = 1
                    continue
                }
                // Into the side it belongs to; the centre to both, the LFE nowhere.
                let left = outNames.firstIndex(where: Self.isFrontLeft)
                let right = outNames.firstIndex(where: Self.isFrontRight)
                // Fronts go to their side whole; to stereo, surrounds join them at -3 dB.
                let front = Self.isFrontLeft(name) || Self.isFrontRight(name)
                let weight: Float = !front && inNames.count > 2 && to == .stereo ? half : 1
                switch Self.side(of: name) {
                case .left: if let left { m[left][i] = weight }
                case .right: if let right { m[right][i] = weight }
                case .centre:
                    if let left { m[left][i] = half }
                    if let right { m[right][i] = half }
                case .none: break
                }
            }
        }
        matrix = m
    }

    /// `frames` frames of `input` (interleaved in `from`) appended to `output` in `to`.
    func mix(_ input: UnsafeBufferPointer<Float>, frames: Int, into output: inout [Float]) {
        let inCount = from.channelCount, outCount = to.channelCount
        if isIdentity {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: input[0..<(frames * inCount)]))
            return
        }
        output.reserveCapacity(output.count + frames * outCount)
        for f in 0..<frames {
            let base = f * inCount
            for o in 0..<outCount {
                var acc: Float = 0
                let row = matrix[o]
                for i in 0..<inCount where row[i] != 0 { acc += row[i] * input[base + i] }
                output.append(acc)
            }
        }
    }

    private enum Side { case left, right, centre }

    private static func isFrontLeft(_ name: String) -> Bool { name == "L" || name == "FL" }
    private static func isFrontRight(_ name: String) -> Bool { name == "R" || name == "FR" }

    private static func side(of name: String) -> Side? {
        switch name {
        case "L", "FL", "BL", "SL", "RL": return .left
        case "R", "FR", "BR", "SR", "RR": return .right
        case "FC", "BC", "M": return .centre
        default: return nil
        }
    }
}
