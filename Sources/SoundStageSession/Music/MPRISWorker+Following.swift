import CSystemd
import Foundation
import SoundStageCore

/// How the bus thread follows the players: the signals it matches, and what it asks them.
extension MPRISWorker {
    // MARK: - Signals

    /// Matches the three signals the players are followed by. sd-bus calls back on this
    /// thread with `self` unretained: the bus, and with it the matches, are closed in
    /// ``shutDown()`` before the thread lets go of the worker.
    func subscribe() -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let matches: [(String?, String, String, String, sd_bus_message_handler_t)] = [
            ("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged", { m, ud, _ in
                guard let m, let ud else { return 0 }
                Unmanaged<MPRISWorker>.fromOpaque(ud).takeUnretainedValue().nameOwnerChanged(BusReader(message: m))
                return 0
            }),
            (nil, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged", { m, ud, _ in
                guard let m, let ud else { return 0 }
                Unmanaged<MPRISWorker>.fromOpaque(ud).takeUnretainedValue().propertiesChanged(BusReader(message: m))
                return 0
            }),
            (nil, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", "Seeked", { m, ud, _ in
                guard let m, let ud else { return 0 }
                Unmanaged<MPRISWorker>.fromOpaque(ud).takeUnretainedValue().seeked(BusReader(message: m))
                return 0
            }),
        ]
        for (sender, path, interface, member, handler) in matches {
            let r = libsystemd.match_signal_async(bus, nil, sender, path, interface, member, handler, nil, me)
            if r < 0 {
                owner?.connectionEnded("the session bus refused to send \(member) (\(errnoDescription(-r)))")
                return false
            }
        }
        return true
    }

    func nameOwnerChanged(_ reader: BusReader) {
        guard let name = reader.string(), name.hasPrefix(MusicPlayerInfo.prefix),
              reader.string() != nil, let newOwner = reader.string() else { return }
        if newOwner.isEmpty {
            owner?.playerVanished(name)
        } else {
            owner?.playerOwned(name, unique: newOwner)
            discover(name, first: false)
        }
    }

    func propertiesChanged(_ reader: BusReader) {
        // Who sent it, before what it says: a peer that is no player, or one that does not
        // answer (its first sign of life asks it again, once at a time), costs no more than
        // that however fast it sends (a flood of 64,000 a second was read slower than it came).
        guard let sender = libsystemd.message_get_sender(reader.message).map({ String(cString: $0) }),
              let (name, answering) = owner?.player(unique: sender) else { return }
        guard answering else {
            discover(name, first: false)
            return
        }
        guard let interface = reader.string(), let changed = reader.properties() else { return }
        let invalidated = reader.strings() ?? []
        switch interface {
        case "org.mpris.MediaPlayer2.Player":
            let refresh = owner?.playerChanged(name, player: changed) ?? false
            if refresh || !invalidated.isEmpty { discover(name, first: false) }
            else if changed["PlaybackStatus"] != nil { refreshPosition(name) }
        case "org.mpris.MediaPlayer2":
            owner?.playerChanged(name, root: changed)
        default: break
        }
    }

    func seeked(_ reader: BusReader) {
        guard let sender = libsystemd.message_get_sender(reader.message).map({ String(cString: $0) }),
              let name = owner?.playerName(unique: sender) else { return }
        var position: Int64 = 0
        guard libsystemd.message_read_basic(reader.message, CChar(UInt8(ascii: "x")), &position) > 0 else { return }
        owner?.playerSeeked(name, microseconds: position)
    }

    // MARK: - Asking the players

    /// Asks player `name` for everything (`GetAll` on both its interfaces); `first`: part of
    /// the first look, which ends when every player answered or timed out.
    func discover(_ name: String, first: Bool) {
        // One look at a time: asked again while a look is unanswered, it is not asked twice.
        let question = Asking(name: name, everything: true)
        guard first || !asking.contains(question) else { return }
        asking.insert(question)
        // Its connection's name, from the bus itself: a player that does not answer is known
        // by it all the same, so its signals are recognised when it comes back.
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "GetNameOwner",
             append: { m in libsystemd.message_append_basic(m, CChar(UInt8(ascii: "s")), name) }, timeout: 0) { [self] reply in
            if case .answered(let reader, _) = reply, let unique = reader.string() { owner?.playerOwned(name, unique: unique) }
        }
        getAll(name, "org.mpris.MediaPlayer2") { [self] reply in
            if case .answered(let reader, _) = reply, let map = reader.properties() { owner?.playerChanged(name, root: map) }
        }
        getAll(name, "org.mpris.MediaPlayer2.Player") { [self] reply in
            switch reply {
            case .answered(let reader, let sender):
                owner?.playerAnswered(name, unique: sender, properties: reader.properties() ?? [:])
            case .failed(_, let timedOut):
                owner?.playerFailed(name, notAnswering: timedOut)
            }
            asking.remove(question)
            if first {
                discovering -= 1
                finishDiscoveryIfDone()
            }
        }
    }

    func finishDiscoveryIfDone() {
        if listed, discovering == 0 { owner?.discoveryFinished() }
    }

    func getAll(_ name: String, _ interface: String, then: @escaping (Reply) -> Void) {
        call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties", member: "GetAll",
             append: { m in libsystemd.message_append_basic(m, CChar(UInt8(ascii: "s")), interface) }, then: then)
    }

    /// Reads player `name`'s position again (players do not announce it as it moves).
    func refreshPosition(_ name: String) {
        let question = Asking(name: name, everything: false)
        guard !asking.contains(question) else { return }
        asking.insert(question)
        call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties", member: "Get",
             append: { m in
                let r = libsystemd.message_append_basic(m, CChar(UInt8(ascii: "s")), "org.mpris.MediaPlayer2.Player")
                return r < 0 ? r : libsystemd.message_append_basic(m, CChar(UInt8(ascii: "s")), "Position")
             }) { [self] reply in
            asking.remove(question)
            if case .answered(let reader, _) = reply, let position = reader.variant()?.int {
                owner?.playerSeeked(name, microseconds: position, announce: false)
            }
        }
    }
}
