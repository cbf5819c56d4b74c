/// What a sound file did not deliver of what it states: where its data was damaged (a gap in
/// an Ogg stream skipped, a FLAC frame that lost its sync, data a decoder gave up on) and where
/// it ended before the length it states.
///
/// A loaded sound carries it (``SoundFile/damage``, ``Sound/damage``): what decoded is kept
/// and plays, and the damage is logged as a warning. A streamed sound's player reports each
/// damaged place as it reaches it (``PlayerEvent/decodeError(_:)``) and plays on past a gap;
/// a playlist goes on to its next item after one that ends early. `soundstage info` and
/// `soundstage render` print it.
public struct DecodeDamage: Sendable, Hashable, CustomStringConvertible {
    /// One damaged place.
    public struct Span: Sendable, Hashable, CustomStringConvertible {
        /// What happened there.
        public enum Kind: String, Sendable, Hashable {
            /// Damaged data was skipped (or decoded as silence) and decoding went on.
            case damaged
            /// Decoding ended there: the data ends, or could not be decoded past this point.
            case cutShort
        }

        /// What happened there: data skipped, or the end of decoding.
        public var kind: Kind
        /// The frame of the decoded sound where it is.
        public var frame: Int
        /// How many of the frames the file states were lost there, when that is known.
        public var framesLost: Int?
        /// What the decoder met, e.g. `libFLAC lost its sync`.
        public var reason: String

        /// A damaged place.
        public init(kind: Kind, frame: Int, framesLost: Int? = nil, reason: String) {
            self.kind = kind
            self.frame = frame
            self.framesLost = framesLost
            self.reason = reason
        }

        /// For example `cut short at frame 57344 (38656 frames lost): the data ends`.
        public var description: String {
            let lost = framesLost.map { " (\($0) frames lost)" } ?? ""
            return "\(kind == .damaged ? "damaged" : "cut short") at frame \(frame)\(lost): \(reason)"
        }
    }

    /// The frames the file states.
    public var framesStated: Int
    /// The frames that decoded.
    public var framesDelivered: Int
    /// The damaged places, in the order met.
    public var spans: [Span]

    /// The damage of a decode of a file stating `framesStated` frames that delivered
    /// `framesDelivered` and met `spans`.
    public init(framesStated: Int, framesDelivered: Int, spans: [Span]) {
        self.framesStated = framesStated
        self.framesDelivered = framesDelivered
        self.spans = spans
    }

    /// What a whole decode by `decoder` that delivered `delivered` frames fell short by; nil
    /// when it decoded whole.
    init?(of decoder: any AudioDecoder, delivered: Int) {
        let spans = decoder.damage
        let lost = spans.reduce(0) { $0 + ($1.kind == .cutShort ? $1.framesLost ?? 0 : 0) }
        let stated = max(decoder.frameCount, delivered + lost)
        guard !spans.isEmpty || delivered < stated else { return nil }
        self.init(framesStated: stated, framesDelivered: delivered, spans: spans)
    }

    /// For example `57344 of 96000 frames decoded; cut short at frame 57344 (38656 frames
    /// lost): the data ends`.
    public var description: String {
        "\(framesDelivered) of \(framesStated) frames decoded; " + spans.map(\.description).joined(separator: "; ")
    }
}

extension AudioDecoder {
    /// None: a decoder that does not look for damage.
    public var damage: [DecodeDamage.Span] { [] }
}
