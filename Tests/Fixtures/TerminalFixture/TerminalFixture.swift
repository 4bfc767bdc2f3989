// The terminal app the end-to-end tests run inside tmux
// (Tests/ComposeAppTests/TerminalEndToEndTests.swift). It turns the
// terminal's modes on, draws a recognizable screen from plain bytes (no
// views: those are tested elsewhere), shows each decoded key, paste and
// resize, and on a key leaves in one of the ways a terminal must survive:
//   q  Application.shutdown()        X  exit(3) from an observer (atexit)
//   S  raise(SIGSEGV)                A  abort()
//   F  a real fault (a write to address 16)
// SIGTERM and SIGINT shut it down gracefully, as any app. When standard
// output is not a terminal it writes plain lines only. With
// TERMINAL_FIXTURE_PROBE set it runs a probe instead (InterruptedRestoreProbe).
import ComposeTerminal
#if canImport(Glibc)
import Glibc
#endif

/// What the screen shows.
@MainActor
final class FixtureScreen {
    var device: TerminalDevice?
    var keys: [String] = []
    var paste = ""
    var resizes = 0

    func start() {
        let device = TerminalDevice()
        self.device = device
        device.input += { [unowned self] input in self.handle(input) }
        device.resized += { [unowned self] _ in
            self.resizes += 1
            self.draw()
        }
        guard device.start() else {
            // Plain lines: no escape sequence reaches a pipe.
            Application.print("not a terminal: plain output")
            Application.print("size unknown, \(device.writeCount) writes")
            Application.shutdown()
            return
        }
        draw()
    }

    func stop() {
        device?.stop()
    }

    func handle(_ input: TerminalInput) {
        switch input {
        case .key("q"):
            Application.shutdown()
            return
        case .key("X"):
            exit(3)
        case .key("S"):
            raise(SIGSEGV)
        case .key("A"):
            abort()
        case .key("F"):
            UnsafeMutablePointer<Int>(bitPattern: 16)!.pointee = 1
        case .key(let key):
            keys.append(key.description)
        case .paste(let text):
            paste = text
        case .mouse(let mouse):
            keys.append("mouse \(mouse.position.x),\(mouse.position.y)")
        }
        if keys.count > 6 { keys.removeFirst(keys.count - 6) }
        draw()
    }

    /// Clears the screen and writes each line at its row, in one write.
    func draw() {
        guard let device else { return }
        let lines = [
            "COMPOSE TERMINAL FIXTURE",
            "size \(device.size.width)x\(device.size.height) resizes \(resizes)",
            "keys [\(keys.joined(separator: "] ["))]",
            "paste [\(paste.replacingNewlines())]",
            "pid \(getpid())",
        ]
        var frame = "\u{1B}[2J"
        for (row, line) in lines.enumerated() {
            frame += "\u{1B}[\(row + 2);3H" + line
        }
        device.write(Array(frame.utf8))
    }
}

extension String {
    func replacingNewlines() -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "|")
    }
}

@main
struct TerminalFixture: StartupComponent {
    let screen = FixtureScreen()

    init() {
        InterruptedRestoreProbe.runIfAsked()
    }

    var observers: Void {
        didAppear += { screen.start() }
        didDisappear += { screen.stop() }
    }
}
