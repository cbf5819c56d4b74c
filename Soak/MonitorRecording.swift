import Foundation
import Synchronization

/// parec recording a PulseAudio sink's monitor (mono float) into a ``PilotTracker`` as it
/// arrives, so ten minutes of output are checked without being kept.
final class MonitorRecording: Sendable {
    let sink: String
    private let process: Process
    private let tracker: Mutex<PilotTracker>
    private let done = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(sink: String, rate: Int) throws {
        self.sink = sink
        tracker = Mutex(PilotTracker(rate: rate))
        let parec = Process()
        parec.executableURL = URL(fileURLWithPath: "/usr/bin/parec")
        parec.arguments = ["--raw", "--format=float32le", "--channels=1", "--rate=\(rate)", "--latency-msec=50", "-d", "\(sink).monitor"]
        let pipe = Pipe()
        parec.standardOutput = pipe
        process = parec
        try parec.run()
        let handle = pipe.fileHandleForReading
        let thread = Thread { [self] in
            // Bytes of a sample split between two reads.
            var carry: [UInt8] = []
            var floats: [Float] = []
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                var bytes = carry
                bytes.append(contentsOf: data)
                let whole = bytes.count / 4
                floats.removeAll(keepingCapacity: true)
                bytes.withUnsafeBytes { raw in
                    for i in 0..<whole { floats.append(raw.loadUnaligned(fromByteOffset: 4 * i, as: Float.self)) }
                }
                carry = Array(bytes[(4 * whole)...])
                self.tracker.withLock { $0.feed(floats) }
            }
            self.finished.signal()
        }
        thread.start()
    }

    /// Stops parec and returns what the tracker found.
    func stop() -> PilotTracker {
        if done.withLock({ d in defer { d = true }; return !d }) {
            process.terminate()
            process.waitUntilExit()
            finished.wait()
        }
        return tracker.withLock { $0 }
    }
}
