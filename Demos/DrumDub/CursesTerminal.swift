import CNcurses
import Foundation
import CTerminalGuard
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The game's terminal, through ncurses: raw keys (Ctrl-C and Ctrl-Z arrive as keys, so the
/// game quits and suspends through its own paths), no echo, no cursor, colours when the
/// terminal has them. Whatever happens, the terminal is given back as it was: ``close()``
/// (also from `deinit`), the quit signals through the game's loop, and a crash through
/// `CTerminalGuard`'s handlers.
final class CursesTerminal {
    struct NotATerminal: Error, CustomStringConvertible {
        var description: String { "the game needs a terminal (standard input and output are not one); render instead: drumdub --script FILE (drumdub --help)" }
    }

    /// ncurses cannot drive this terminal: its type is unknown (or TERM is not set).
    struct UnknownTerminal: Error, CustomStringConvertible {
        let term: String?
        var description: String {
            "ncurses does not know this terminal (TERM=\(term ?? "unset")); set TERM to one it knows (xterm-256color, screen) or render instead: drumdub --script FILE"
        }
    }

    private var screen: OpaquePointer?
    private var hasColors = false
    /// The real standard error, kept while fd 2 writes to ``log``.
    private var savedStderr: Int32 = -1
    /// Where standard error goes while the screen is up: OpenAL Soft and libpulse print their
    /// complaints there (a lost stream, a missing system bus), which would write over the
    /// screen. `--log FILE`, or a new file in the temporary folder (made with mkstemps, so
    /// no file or link planted there is followed).
    let log: String

    init(log given: String?) throws {
        guard isatty(0) == 1, isatty(1) == 1 else { throw NotATerminal() }
        let logFD: Int32
        if let given {
            logFD = open(given, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            log = given
        } else {
            var template = Array((FileManager.default.temporaryDirectory.path + "/drumdub-XXXXXX.log").utf8CString)
            logFD = mkstemps(&template, 4)
            log = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if logFD >= 0 { _ = fcntl(logFD, F_SETFD, FD_CLOEXEC) }
        }
        if logFD >= 0 {
            savedStderr = fcntl(2, F_DUPFD_CLOEXEC, 3)
            fflush(nil)
            dup2(logFD, 2)
            Glibc.close(logFD)
            dd_guard_set_saved_stderr(savedStderr)
        }
        _ = dd_guard_install(1)
        set_escdelay(25)
        guard let screen = dd_newterm() else {
            restoreStderr()
            throw UnknownTerminal(term: ProcessInfo.processInfo.environment["TERM"])
        }
        self.screen = screen
        raw()
        noecho()
        _ = dd_keypad_on()
        curs_set(0)
        timeout(10)
        if has_colors() {
            hasColors = true
            start_color()
            use_default_colors()
            let pairs: [(Canvas.Style, Int16, Int16)] = [
                (.title, Int16(COLOR_CYAN), -1), (.drum, Int16(COLOR_YELLOW), -1), (.player, Int16(COLOR_GREEN), -1),
                (.meterLow, Int16(COLOR_GREEN), -1), (.meterMid, Int16(COLOR_YELLOW), -1), (.meterHigh, Int16(COLOR_RED), -1),
                (.alert, Int16(COLOR_WHITE), Int16(COLOR_RED)),
            ]
            for (style, foreground, background) in pairs { init_pair(Int16(style.rawValue), foreground, background) }
        }
        dd_guard_set_screen_active(1)
    }

    deinit { close() }

    /// The terminal's size in characters.
    var size: (columns: Int, rows: Int) { (Int(dd_columns()), Int(dd_lines())) }

    /// Shows `canvas` (only what changed reaches the terminal); a terminal smaller than the
    /// canvas is asked to grow.
    func show(_ canvas: Canvas) {
        erase()
        let (columns, rows) = size
        if columns < canvas.columns || rows < canvas.rows {
            attrset(0)
            mvaddstr(0, 0, "drumdub needs \(canvas.columns) x \(canvas.rows); this terminal is \(columns) x \(rows).")
            mvaddstr(1, 0, "Make it larger (q quits).")
        } else {
            for row in 0..<canvas.rows {
                for run in canvas.runs(ofRow: row) {
                    attrset(attribute(run.style))
                    mvaddstr(Int32(row), Int32(run.column), run.text)
                }
            }
            attrset(0)
        }
        refresh()
    }

    private func attribute(_ style: Canvas.Style) -> Int32 {
        switch style {
        case .normal: return 0
        case .dim: return dd_dim()
        case .title, .drum, .player, .alert: return (hasColors ? dd_color_pair(Int16(style.rawValue)) : 0) | dd_bold()
        case .meterLow, .meterMid, .meterHigh: return hasColors ? dd_color_pair(Int16(style.rawValue)) : 0
        }
    }

    /// The next key, waiting up to 10 ms; nil if none came.
    func readKey() -> Int32? {
        let key = getch()
        return key == dd_err() ? nil : key
    }

    /// Whether `key` says the terminal changed size.
    static func isResize(_ key: Int32) -> Bool { key == dd_key_resize() }

    /// The game's action for a key, nil for a key the game does not use.
    static func action(for key: Int32) -> Action? {
        switch key {
        case dd_key_up(): return .stepForward
        case dd_key_down(): return .stepBack
        case dd_key_left(): return .turnLeft
        case dd_key_right(): return .turnRight
        case 3: return .quit        // Ctrl-C
        case 26: return .suspend    // Ctrl-Z
        case 32...126: return Action(key: String(UnicodeScalar(UInt8(key))))
        default: return nil
        }
    }

    /// Gives the terminal back for a while (a suspend): the shell's screen and modes.
    func leave() {
        endwin()
        dd_guard_set_screen_active(0)
    }

    /// Takes the terminal again after ``leave()`` (or after being stopped from outside), and
    /// repaints all of it.
    func repaint() {
        // The shell may have put its own modes back while the game was stopped.
        reset_prog_mode()
        dd_guard_set_screen_active(1)
        _ = dd_clear_on_refresh()
        refresh()
    }

    /// Gives the terminal back for good, and standard error. Safe to call twice.
    func close() {
        guard let screen else { return }
        endwin()
        delscreen(screen)
        self.screen = nil
        dd_guard_set_screen_active(0)
        restoreStderr()
    }

    private func restoreStderr() {
        guard savedStderr >= 0 else { return }
        dd_guard_set_saved_stderr(-1)
        dup2(savedStderr, 2)
        Glibc.close(savedStderr)
        savedStderr = -1
    }
}
