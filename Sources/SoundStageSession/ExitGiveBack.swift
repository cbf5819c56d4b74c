import SoundStageCore

/// What the session hands back to others as the process exits (returning from `main`,
/// `exit`, or a SIGINT or SIGTERM handler that ends with `exit`): the objects registered, held
/// weakly, each given back by `action` from the exiting thread. The owner installs the exit
/// handler itself when ``register(_:)`` first says so (a C exit handler captures nothing: it
/// names the owner's static instance), so that it runs before target CProcessExit's, which
/// keeps the gateway lock for the rest of the process (exit handlers run last registered
/// first, and CProcessExit's is registered before `main`). A process killed gives nothing back.
final class ExitGiveBack<Object: AnyObject & Sendable>: Sendable {
    private struct Weak: @unchecked Sendable { weak var object: Object? }
    private let objects = LockedBox<(installed: Bool, list: [Weak])>((false, []))
    private let action: @Sendable ([Object]) -> Void

    /// `action` gives back what the objects still alive hold.
    init(_ action: @escaping @Sendable ([Object]) -> Void) { self.action = action }

    /// Registers `object` (once); returns true the first time anything is registered: the
    /// caller then installs the exit handler that calls ``giveBack()``.
    func register(_ object: Object) -> Bool {
        objects.withLock { o -> Bool in
            o.list.removeAll { $0.object == nil }
            if !o.list.contains(where: { $0.object === object }) { o.list.append(Weak(object: object)) }
            defer { o.installed = true }
            return !o.installed
        }
    }

    /// Gives back what the registered objects still alive hold (the exit handler).
    func giveBack() {
        action(objects.withLock { $0.list }.compactMap(\.object))
    }
}
