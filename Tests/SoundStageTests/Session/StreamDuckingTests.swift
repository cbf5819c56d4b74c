import Foundation
import Testing
@testable import SoundStageSession

/// What the ducking makes of the streams the server shows, step by step: which it lowers, how
/// it tells the server running behind from the user, and the volumes servers remember.
/// (Heard and read back at real servers in the live tier: `AudioSessionDuckingTests`.)
@Suite("Stream ducking: the server's word and the user's")
struct StreamDuckingTests {
    static let half: UInt32 = 32768
    static func lower(_ v: [UInt32]) -> [UInt32] { v.map { UInt32(UInt64($0) * UInt64(half) / 65536) } }
    static func input(_ index: UInt32, _ volume: UInt32, pid: Int32 = 100, app: String = "music", phone: Bool = false) -> SinkInput {
        SinkInput(index: index, sink: 0, isPhone: phone, pid: pid, application: app, volume: [volume, volume], volumeWritable: true,
                  restoreID: "sink-input-by-application-name:\(app)")
    }

    @Test("lowers other processes' streams once; the old volume before the lowered one shows is the server behind, after it the user")
    func serverOrUser() {
        var d = StreamDucking(factor: Self.half, depth: 6)
        #expect(d.saw(Self.input(1, 40000), ownPID: 7, lower: Self.lower) == .lower([20000, 20000]))
        #expect(d.saw(Self.input(1, 40000), ownPID: 7, lower: Self.lower) == .none, "the server has not applied it yet")
        #expect(d.streams[1]?.confirmed == false)
        #expect(d.saw(Self.input(1, 20000), ownPID: 7, lower: Self.lower) == .none)
        #expect(d.streams[1]?.confirmed == true)
        #expect(d.saw(Self.input(1, 40000), ownPID: 7, lower: Self.lower) == .released, "after it showed lowered, another volume is the user's")
        #expect(d.streams[1] == nil)
        #expect(d.saw(Self.input(1, 30000), ownPID: 7, lower: Self.lower) == .none, "the user's stream is not lowered again")
    }

    @Test("not lowered: its own streams, calls, streams at volume 0 (PipeWire's before its session manager sets one) until they get one")
    func notLowered() {
        var d = StreamDucking(factor: Self.half, depth: 6)
        #expect(d.saw(Self.input(1, 40000, pid: 7), ownPID: 7, lower: Self.lower) == .none)
        #expect(d.saw(Self.input(2, 40000, phone: true), ownPID: 7, lower: Self.lower) == .none)
        #expect(d.saw(Self.input(3, 0), ownPID: 7, lower: Self.lower) == .none)
        #expect(d.saw(Self.input(3, 50000), ownPID: 7, lower: Self.lower) == .lower([25000, 25000]))
        #expect(d.streams.keys.sorted() == [3])
    }

    @Test("a new stream at the lowered volume the server remembered is adopted with the volume from before; one that went is kept for the record")
    func remembered() {
        var d = StreamDucking(factor: Self.half, depth: 6)
        _ = d.saw(Self.input(1, 40000), ownPID: 7, lower: Self.lower)
        _ = d.saw(Self.input(1, 20000), ownPID: 7, lower: Self.lower)
        #expect(d.saw(Self.input(2, 20000), ownPID: 7, lower: Self.lower) == .adopted, "the app's next stream, started lowered")
        #expect(d.streams[2]?.original == [40000, 40000])
        let removed = d.removed(1)
        #expect(removed)
        #expect(d.vanished.map(\.index) == [1])
        #expect(d.saw(Self.input(3, 20000, app: "other"), ownPID: 7, lower: Self.lower) == .lower([10000, 10000]), "another app's is its own")
        d.serverChanged(to: ("/run/pulse/native", 1))
        d.serverChanged(to: ("/run/pulse/native", 2))
        #expect(d.streams.isEmpty && d.vanished.count == 3 && d.vanished.allSatisfy { $0.index == DuckedStream.gone },
                "started again: the streams are gone, their indices mean nothing")
        #expect(d.recorded.count == 3)
    }

    /// A sink as the monitor knows it, with flat volumes or not.
    static func sink(_ volume: UInt32, flat: Bool = true) -> SoundServerMonitor.Sink {
        SoundServerMonitor.Sink(index: 0, name: "apps", description: "apps", volume: volume, flatVolume: flat)
    }

    @Test("flat volumes: the sink's volume changed carries a lowered stream and its volume from before as far; the stream's own change is the user's")
    func flatVolumes() {
        var d = StreamDucking(factor: Self.half, depth: 6)
        #expect(d.saw(Self.input(1, 40000), sink: Self.sink(65536), ownPID: 7, lower: Self.lower) == .lower([20000, 20000]))
        #expect(d.streams[1]?.sinkVolume == 65536, "taken at the sink's volume")
        #expect(d.saw(Self.input(1, 20000), sink: Self.sink(65536), ownPID: 7, lower: Self.lower) == .none)
        // The user sets the sink to 50 %: PulseAudio scales every stream by as much.
        #expect(d.saw(Self.input(1, 10000), sink: Self.sink(32768), ownPID: 7, lower: Self.lower) == .carried)
        #expect(d.streams[1].map { ($0.original, $0.lowered, $0.sinkVolume) } ?? ([], [], nil) == ([20000, 20000], [10000, 10000], 32768))
        // At 0 the streams are held at 0; back up, they come back with it.
        #expect(d.saw(Self.input(1, 0), sink: Self.sink(0), ownPID: 7, lower: Self.lower) == .none)
        #expect(d.saw(Self.input(1, 15000), sink: Self.sink(49152), ownPID: 7, lower: Self.lower) == .carried)
        #expect(d.streams[1]?.original == [30000, 30000])
        // The stream's own volume changed, the sink's not: the user's.
        #expect(d.saw(Self.input(1, 12000), sink: Self.sink(49152), ownPID: 7, lower: Self.lower) == .released)

        // Without flat volumes a change of the sink's volume leaves the streams; another
        // volume of a stream is the user's as before.
        var plain = StreamDucking(factor: Self.half, depth: 6)
        #expect(plain.saw(Self.input(2, 40000), sink: Self.sink(65536, flat: false), ownPID: 7, lower: Self.lower) == .lower([20000, 20000]))
        #expect(plain.streams[2]?.sinkVolume == nil)
        #expect(plain.saw(Self.input(2, 20000), sink: Self.sink(65536, flat: false), ownPID: 7, lower: Self.lower) == .none)
        #expect(plain.saw(Self.input(2, 10000), sink: Self.sink(32768, flat: false), ownPID: 7, lower: Self.lower) == .released)
    }

    @Test("a stream is never carried above its sink's volume, whatever sink volume a record claims it was taken at")
    func carriedNoHigherThanTheSink() {
        let forged = DuckedStream(index: 1, original: [65536], lowered: [16384], sinkVolume: 1)
        #expect(forged.carried(by: Self.sink(40000))?.original == [40000])
        #expect(forged.carried(by: Self.sink(40000, flat: false)) == nil)
        #expect(forged.carried(by: Self.sink(0)) == nil)
        #expect(DuckedStream(index: 1, original: [65536], lowered: [16384]).carried(by: Self.sink(40000)) == nil, "no sink volume recorded")
    }

    @Test("volumes compare as servers read them back: PulseAudio exactly, pipewire-pulse within a few steps")
    func sameVolume() {
        #expect(DuckedStream.same([45875, 45875], [45875, 45875]))
        #expect(DuckedStream.same([45875], [45878]))
        #expect(!DuckedStream.same([45875], [45900]))
        #expect(!DuckedStream.same([45875], [45875, 45875]))
    }
}
