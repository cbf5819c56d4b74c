import CSystemd
import Foundation
import SoundStageCore

/// The commands the bus thread sends a player.
extension MPRISWorker {
    /// Sends `command` to player `name`; `done` gets nil once it answered, else the reason.
    func send(_ command: MusicCommand, to name: String, trackID: String?, position: TimeInterval, done: @escaping (Reply) -> Void) {
        let player = "org.mpris.MediaPlayer2.Player"
        func method(_ member: String, append: @escaping (OpaquePointer) -> Int32 = { _ in 0 }) {
            call(destination: name, path: "/org/mpris/MediaPlayer2", interface: player, member: member, append: append, onCommands: true, then: done)
        }
        func set(_ property: String, _ type: Character, _ write: @escaping (OpaquePointer) -> Int32) {
            call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties", member: "Set",
                 append: { m in
                    let s = CChar(UInt8(ascii: "s")), v = CChar(UInt8(ascii: "v"))
                    var r = libsystemd.message_append_basic(m, s, player)
                    if r >= 0 { r = libsystemd.message_append_basic(m, s, property) }
                    if r >= 0 { r = libsystemd.message_open_container(m, v, String(type)) }
                    if r >= 0 { r = write(m) }
                    return r >= 0 ? libsystemd.message_close_container(m) : r
                 }, onCommands: true, then: done)
        }
        switch command {
        case .play: method("Play")
        case .pause: method("Pause")
        case .togglePlayPause: method("PlayPause")
        case .stop: method("Stop")
        case .skipToNextItem: method("Next")
        case .skipToPreviousItem: method("Previous")
        case .seek(let seconds):
            let target = Int64((seconds * 1_000_000).rounded())
            if let trackID {
                method("SetPosition") { m in
                    var r = libsystemd.message_append_basic(m, CChar(UInt8(ascii: "o")), trackID)
                    var at = target
                    if r >= 0 { r = libsystemd.message_append_basic(m, CChar(UInt8(ascii: "x")), &at) }
                    return r
                }
            } else {
                method("Seek") { m in
                    var offset = target - Int64((position * 1_000_000).rounded())
                    return libsystemd.message_append_basic(m, CChar(UInt8(ascii: "x")), &offset)
                }
            }
        case .setVolume(let volume):
            set("Volume", "d") { m in
                var v = volume
                return libsystemd.message_append_basic(m, CChar(UInt8(ascii: "d")), &v)
            }
        case .setShuffleMode(let mode):
            set("Shuffle", "b") { m in
                var b: Int32 = mode == .songs ? 1 : 0
                return libsystemd.message_append_basic(m, CChar(UInt8(ascii: "b")), &b)
            }
        case .setRepeatMode(let mode):
            set("LoopStatus", "s") { m in libsystemd.message_append_basic(m, CChar(UInt8(ascii: "s")), mode.mpris) }
        }
    }
}
