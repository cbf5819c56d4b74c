import Foundation
import SoundStageCore
import SoundStageSession

/// The thread that reads a capture device: `tick` runs every `period` seconds until it
/// returns false. Recorders and capture streams each run one.
enum CaptureThread {
    static func start(name: String, period: Double, _ tick: @escaping @Sendable () -> Bool) throws(WorkerThread.SpawnError) -> WorkerThread {
        try WorkerThread.spawn {
            ThreadName.setCurrent(name)
            while true {
                Thread.sleep(forTimeInterval: period)
                if !tick() { return }
            }
        }
    }
}
