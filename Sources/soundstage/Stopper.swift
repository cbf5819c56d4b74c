import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a flag a loop reads; a second signal ends the process at
/// once (exit status 130), should the first one's clean stop hang.
final class Stopper: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    private var sources: [DispatchSourceSignal] = []

    var asked: Bool { lock.withLock { flag } }

    func watch(_ number: Int32) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler { [weak self] in
            guard let self else { return }
            let again = lock.withLock { () -> Bool in
                defer { flag = true }
                return flag
            }
            if again { exit(130) }
        }
        source.resume()
        sources.append(source)
    }
}
