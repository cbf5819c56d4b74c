import Foundation
import Synchronization
import Testing

/// An X server of the test's own (Xvfb, no window manager), driven with xdotool and looked
/// at with ImageMagick's `import`: for the game's window (`drumdub --window`).
package final class VirtualDisplay {
    /// The display's name, e.g. `:93`.
    package let name: String
    package let width: Int, height: Int
    private let server: ChildProcess
    private let folder: TemporaryFolder

    /// Whether Xvfb, xdotool and ImageMagick's import are installed.
    package static var isInstalled: Bool { ["Xvfb", "xdotool", "import"].allSatisfy { ToolRunner.which($0) != nil } }

    /// The display numbers this process has not used yet: the next display is taken from
    /// here, so that no test's server starts where the last test's server may still be ending.
    private static let unused = Mutex(90)

    /// Starts a server on the first free display this process has not used (from :90),
    /// `width` x `height` at 24 bits.
    package init(width: Int = 1280, height: Int = 800) throws {
        let xvfb = try #require(ToolRunner.which("Xvfb"), "Xvfb is not installed")
        (self.width, self.height) = (width, height)
        folder = try TemporaryFolder()
        // A display whose lock is gone may still be served by an Xvfb that is ending (the last
        // test's): a new server there exits ("already active") while the old one still answers,
        // and the game would open its window on the one that goes. So the display is one this
        // process has not used, and taken only once this process's own server answers there
        // and still runs; otherwise the next.
        var started: (String, ChildProcess)?
        while started == nil {
            let number = Self.unused.withLock { next in
                defer { next += 1 }
                return next
            }
            guard number < 400 else { break }
            guard !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") else { continue }
            let name = ":\(number)"
            let server = try ChildProcess(xvfb, [name, "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"])
            let deadline = ContinuousClock.now + .seconds(10)
            while server.isRunning, ContinuousClock.now < deadline,
                  try ToolRunner.run(try #require(ToolRunner.which("xdotool")), ["getdisplaygeometry"], environment: ["DISPLAY": name]).status != 0 {
                Thread.sleep(forTimeInterval: 0.05)
            }
            Thread.sleep(forTimeInterval: 0.2)
            if server.isRunning, ContinuousClock.now < deadline { started = (name, server) } else { server.signal(SIGTERM) }
        }
        guard let (name, server) = started else { throw PulseError("no X display of its own from :90 to :399") }
        self.name = name
        self.server = server
    }

    /// What a client needs to find the display.
    package var environment: [String: String] { ["DISPLAY": name] }

    /// Runs xdotool on the display.
    @discardableResult
    package func xdotool(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try ToolRunner.run(try #require(ToolRunner.which("xdotool")), arguments, environment: environment)
    }

    /// The id of the first window whose name is `name`, once it is mapped (nil after `seconds`:
    /// 20, as a CI run beside the PipeWire live tests and the fuzzers' build saw drumdub say its
    /// window was open and xdotool find none mapped within 10).
    package func window(named name: String, seconds: Double = 20) throws -> String? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        repeat {
            let found = try xdotool(["search", "--onlyvisible", "--name", "^\(name)$"])
            if let id = found.stdout.split(separator: "\n").first { return String(id) }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        return nil
    }

    /// What the display holds, for a test that found no window: whether this display's own
    /// server still runs, which process the display's lock names (its pid against ours), and
    /// every window named `name`, mapped or not, with its map state.
    package func diagnosis(named name: String) -> String {
        let lock = (try? String(contentsOfFile: "/tmp/.X\(self.name.dropFirst())-lock", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "none"
        var report = "display \(self.name): its Xvfb (pid \(server.pid)) \(server.isRunning ? "runs" : "ended: \(server.ending)"); the lock names pid \(lock)"
        let all = (try? xdotool(["search", "--name", name]))?.stdout.split(separator: "\n") ?? []
        report += "; \(all.count) windows named \(name)"
        if let visible = try? xdotool(["search", "--onlyvisible", "--name", "^\(name)$"]) {
            report += " (search --onlyvisible: status \(visible.status), \(visible.stdout.split(separator: "\n").count) found, \(visible.stderr))"
        }
        for id in all {
            let state = (try? xwininfo(["-id", String(id)]))?.stdout.firstMatch(of: /Map State: (\w+)/).map { String($0.1) } ?? "unknown"
            report += ", \(id) \(state)"
        }
        let tree = try? xwininfo(["-root", "-children"])
        report += "; xwininfo -root -children: status \(tree?.status ?? -1), \(tree?.stdout.split(separator: "\n").count ?? 0) lines, \(tree?.stderr ?? "")"
        return report
    }

    /// Runs xwininfo (x11-utils) on the display.
    private func xwininfo(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let tool = ToolRunner.which("xwininfo") else { throw PulseError("xwininfo (x11-utils) is not installed") }
        return try ToolRunner.run(tool, arguments, environment: environment)
    }

    /// A window's size in pixels, as the server has it.
    package func size(of window: String) throws -> (width: Int, height: Int)? {
        let geometry = try xdotool(["getwindowgeometry", window]).stdout
        guard let match = geometry.firstMatch(of: /Geometry: (\d+)x(\d+)/) else { return nil }
        return (Int(match.1)!, Int(match.2)!)
    }

    /// Asks `window` to close as a window manager does when its close button is clicked: a
    /// WM_PROTOCOLS client message naming WM_DELETE_WINDOW. Xvfb runs no window manager, and
    /// this xdotool (3.20160805) only destroys or kills windows; libX11 is opened at run time.
    package func pressCloseButton(of window: String) throws {
        guard let id = UInt(window) else { throw PulseError("not a window id: \(window)") }
        guard let x11 = dlopen("libX11.so.6", RTLD_NOW) else { throw PulseError("libX11.so.6 cannot be opened") }
        defer { dlclose(x11) }
        func symbol<Function>(_ name: String, _: Function.Type) throws -> Function {
            guard let found = dlsym(x11, name) else { throw PulseError("libX11 has no \(name)") }
            return unsafeBitCast(found, to: Function.self)
        }
        let open = try symbol("XOpenDisplay", (@convention(c) (UnsafePointer<CChar>?) -> OpaquePointer?).self)
        let intern = try symbol("XInternAtom", (@convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> UInt).self)
        let send = try symbol("XSendEvent", (@convention(c) (OpaquePointer?, UInt, Int32, Int, UnsafeMutableRawPointer?) -> Int32).self)
        let flush = try symbol("XFlush", (@convention(c) (OpaquePointer?) -> Int32).self)
        let close = try symbol("XCloseDisplay", (@convention(c) (OpaquePointer?) -> Int32).self)
        guard let display = open(name) else { throw PulseError("cannot open the display \(name)") }
        defer { _ = close(display) }
        // An XEvent is 24 longs; as an XClientMessageEvent on LP64 each field takes one (an
        // int in the low half): type, serial, send_event, display, window, message_type,
        // format, then data.l[0...4] (the protocol's atom, then the time).
        var event = [Int](repeating: 0, count: 24)
        event[0] = 33                                           // ClientMessage
        event[2] = 1                                            // sent by a client
        event[3] = Int(bitPattern: display)
        event[4] = Int(id)
        event[5] = Int(intern(display, "WM_PROTOCOLS", 0))
        event[6] = 32
        event[7] = Int(intern(display, "WM_DELETE_WINDOW", 0))
        let sent = event.withUnsafeMutableBytes { send(display, id, 0, 0, $0.baseAddress) }
        guard sent != 0 else { throw PulseError("XSendEvent to \(window) failed") }
        _ = flush(display)
    }

    /// The whole screen now.
    package func screenshot() throws -> Screenshot {
        let file = folder.file("screen-\(UInt32.random(in: 0...UInt32.max)).rgb")
        defer { try? FileManager.default.removeItem(at: file) }
        let taken = try ToolRunner.run(try #require(ToolRunner.which("import")), ["-window", "root", "-depth", "8", "rgb:\(file.path)"],
                                       environment: environment)
        guard taken.status == 0 else { throw PulseError("import failed: \(taken.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: file))
        guard bytes.count == width * height * 3 else { throw PulseError("a screenshot of \(bytes.count) bytes, not \(width) x \(height) x 3") }
        return Screenshot(width: width, height: height, rgb: bytes)
    }

    package func stop() {
        server.signal(SIGTERM)
        let deadline = ContinuousClock.now + .seconds(5)
        while server.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    deinit { stop() }
}

/// A screenshot's pixels, 8-bit RGB, row by row from the top left.
package struct Screenshot {
    package let width: Int, height: Int
    package let rgb: [UInt8]

    package func pixel(_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let i = (y * width + x) * 3
        return (rgb[i], rgb[i + 1], rgb[i + 2])
    }

    /// The pixels of exactly this colour: how many, and their centre (nil if none).
    package func find(red: UInt8, green: UInt8, blue: UInt8) -> (count: Int, centre: (x: Int, y: Int)?) {
        var count = 0, sumX = 0, sumY = 0
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                if rgb[i] == red, rgb[i + 1] == green, rgb[i + 2] == blue {
                    count += 1
                    sumX += x
                    sumY += y
                }
            }
        }
        return (count, count > 0 ? (sumX / count, sumY / count) : nil)
    }
}
