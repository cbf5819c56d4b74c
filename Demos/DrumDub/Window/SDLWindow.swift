import CSDL2
import Foundation

/// A window of SDL2's with a renderer to draw rectangles and lines in, and the input it gets,
/// as ``WindowInput``. SDL2 is opened when the first window is (it is not linked), so the
/// terminal game runs without it.
final class SDLWindow {
    /// Why there is no window: SDL2 missing, or no display.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// A colour, red green blue, 0...255.
    struct Colour: Equatable {
        var red: UInt8, green: UInt8, blue: UInt8
        init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) { (self.red, self.green, self.blue) = (red, green, blue) }
    }

    private let sdl: ss_sdl2
    /// How many times a display is asked before the game says there is none.
    private static let attempts = 3
    private let window: OpaquePointer
    private let renderer: OpaquePointer

    /// Opens a window of `width` x `height` pixels, centred, resizable, titled `title`.
    ///
    /// - Throws: ``Unavailable`` without SDL2 (naming the package) or without a display.
    init(title: String, width: Int, height: Int) throws {
        guard let table = ss_sdl2() else {
            let reason = ss_sdl2_error().map { String(cString: $0) } ?? "not found"
            throw Unavailable(description: "SDL2 could not be loaded (\(reason)); install it: sudo apt-get install libsdl2-2.0-0")
        }
        sdl = table.pointee
        // Without a display SDL2 may still start, on a driver that shows nothing: a display is
        // named (X11 or Wayland), or the user chose SDL's driver (SDL_VIDEODRIVER).
        let environment = ProcessInfo.processInfo.environment
        guard ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"].contains(where: { !(environment[$0] ?? "").isEmpty }) else {
            throw Unavailable(description: "no display for a window (neither DISPLAY nor WAYLAND_DISPLAY is set)")
        }
        // Only the display named: left to itself, SDL2 falls back to its offscreen driver when
        // the X server does not answer (seen once under Xvfb on a loaded machine), and the game
        // would play with no window on the screen.
        if (environment["SDL_VIDEODRIVER"] ?? "").isEmpty {
            // Set but empty, the variable would outrank the hint, and SDL try every driver.
            unsetenv("SDL_VIDEODRIVER")
            let drivers = [("DISPLAY", "x11"), ("WAYLAND_DISPLAY", "wayland")].filter { !(environment[$0.0] ?? "").isEmpty }.map(\.1)
            _ = sdl.SetHint("SDL_VIDEODRIVER", drivers.joined(separator: ","))
        }
        // No sound from SDL: the game's audio is SoundStage's. A display that does not answer
        // is asked again twice, half a second apart, each refusal said.
        var attempt = 1
        while sdl.Init(UInt32(SDL_INIT_VIDEO)) != 0 {
            let display = ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { environment[$0] }.first { !$0.isEmpty } ?? "named"
            let reason = "the display \(display) did not open (\(Self.lastError(sdl)))"
            guard attempt < Self.attempts else { throw Unavailable(description: "no display for a window: \(reason)") }
            FileHandle.standardError.write(Data("drumdub: \(reason); asking again\n".utf8))
            attempt += 1
            Thread.sleep(forTimeInterval: 0.5)
        }
        let centred = dd_sdl_windowpos_centered()
        let flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_RESIZABLE.rawValue
        guard let window = sdl.CreateWindow(title, centred, centred, Int32(width), Int32(height), flags) else {
            let reason = Self.lastError(sdl)
            sdl.Quit()
            throw Unavailable(description: "no window could be opened (\(reason))")
        }
        sdl.SetWindowMinimumSize(window, 480, 300)
        // Accelerated where there is a GPU, else SDL's software renderer (as under Xvfb); no
        // vsync asked: the game's loop paces its frames itself.
        guard let renderer = sdl.CreateRenderer(window, -1, 0) else {
            let reason = Self.lastError(sdl)
            sdl.DestroyWindow(window)
            sdl.Quit()
            throw Unavailable(description: "no renderer for the window (\(reason))")
        }
        self.window = window
        self.renderer = renderer
    }

    /// The video driver SDL2 chose, e.g. `x11` or `wayland`.
    var driver: String {
        sdl.GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }

    /// The drawable size in pixels.
    var size: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        _ = sdl.GetRendererOutputSize(renderer, &width, &height)
        return (Int(width), Int(height))
    }

    /// The input that came since the last call.
    func input() -> [WindowInput] {
        var inputs: [WindowInput] = []
        var event = SDL_Event()
        while sdl.PollEvent(&event) == 1 {
            if let input = WindowInput(event) { inputs.append(input) }
        }
        return inputs
    }

    func clear(_ colour: Colour) {
        setColour(colour)
        _ = sdl.RenderClear(renderer)
    }

    func fill(x: Int, y: Int, width: Int, height: Int, _ colour: Colour) {
        guard width > 0, height > 0 else { return }
        setColour(colour)
        var rect = SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height))
        _ = sdl.RenderFillRect(renderer, &rect)
    }

    /// Fills many rectangles of one colour at once: (x, y, width, height) each.
    func fill(_ rects: [SDL_Rect], _ colour: Colour) {
        guard !rects.isEmpty else { return }
        setColour(colour)
        _ = rects.withUnsafeBufferPointer { sdl.RenderFillRects(renderer, $0.baseAddress, Int32($0.count)) }
    }

    func line(from a: (x: Int, y: Int), to b: (x: Int, y: Int), _ colour: Colour) {
        setColour(colour)
        _ = sdl.RenderDrawLine(renderer, Int32(a.x), Int32(a.y), Int32(b.x), Int32(b.y))
    }

    /// Shows what was drawn since the last.
    func present() { sdl.RenderPresent(renderer) }

    /// Closes the window and SDL.
    func close() {
        sdl.DestroyRenderer(renderer)
        sdl.DestroyWindow(window)
        sdl.Quit()
    }

    /// What SDL last said went wrong.
    private static func lastError(_ sdl: ss_sdl2) -> String { sdl.GetError().map { String(cString: $0) } ?? "no reason given" }

    private func setColour(_ c: Colour) { _ = sdl.SetRenderDrawColor(renderer, c.red, c.green, c.blue, 255) }
}

/// What a window's input asks: a key by the name ``Action/init(key:)`` takes, a click, the
/// wheel, focus, a new size, or closing.
enum WindowInput: Equatable {
    case key(String)
    case click(x: Int, y: Int)
    case wheel(Int)
    case focus(Bool)
    case resized
    case close

    init?(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_QUIT: self = .close
        case SDL_KEYDOWN:
            guard let name = Self.keyName(event.key.keysym.sym) else { return nil }
            self = .key(name)
        case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
            self = .click(x: Int(event.button.x), y: Int(event.button.y))
        case SDL_MOUSEWHEEL: self = .wheel(Int(event.wheel.y))
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_FOCUS_GAINED: self = .focus(true)
            case SDL_WINDOWEVENT_FOCUS_LOST: self = .focus(false)
            case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_EXPOSED: self = .resized
            case SDL_WINDOWEVENT_CLOSE: self = .close
            default: return nil
            }
        default: return nil
        }
    }

    /// The name of a key as the terminal game's keys are named: arrows by name, Escape as
    /// `q`, printable keys as themselves.
    static func keyName(_ key: SDL_Keycode) -> String? {
        switch Int(key) {
        case Int(SDLK_UP.rawValue): "up"
        case Int(SDLK_DOWN.rawValue): "down"
        case Int(SDLK_LEFT.rawValue): "left"
        case Int(SDLK_RIGHT.rawValue): "right"
        case Int(SDLK_ESCAPE.rawValue): "q"
        case Int(SDLK_SPACE.rawValue): "space"
        case Int(SDLK_KP_PLUS.rawValue): "+"
        case Int(SDLK_KP_MINUS.rawValue): "-"
        case 33...126: String(UnicodeScalar(UInt8(key)))
        default: nil
        }
    }
}
