internal import ComposeApp
public import ComposeTerminal
public import ComposeTesting
public import Testing

extension TestApp {
    // MARK: The screen

    /// What a terminal shows for this app, as text: the rows of
    /// `screenLines`, trailing blank rows cut, joined by `"\n"` (no
    /// newline after the last).
    ///
    /// ```swift
    /// let app = TestApp(StepperApp.self)
    /// app.press("+")
    /// #expect(app.screen == """
    ///     count: 1
    ///
    ///     + more  q quit
    ///     """)
    /// ```
    ///
    /// The screen is built the way a real terminal builds it: every byte
    /// the app wrote to its terminal, applied to a `VirtualTerminal` of
    /// the terminal's size (80x24 unless the test resized it; see
    /// `resize(width:height:)`). So it shows exactly what the app's
    /// frames drew, and it is blank before the first frame and again after
    /// the app gave the terminal back (the alternate screen left). An app
    /// without a terminal (`simulatedTerminal.isTerminal` false) writes
    /// its plain lines to standard output instead.
    public var screen: String {
        var lines = screenLines
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Every row of the screen, top to bottom (`screenLines[y]` is row
    /// `y`; blank rows included, as empty strings), trailing spaces cut
    /// and the right halves of wide characters skipped.
    public var screenLines: [String] {
        let grid = virtualTerminal.grid
        return (0..<grid.size.height).map { grid.text(row: $0) }
    }

    /// The cell at column `x`, row `y` from the top left (0, 0): its
    /// character, style and width. Blank outside the screen.
    ///
    /// ```swift
    /// #expect(app.cell(x: 0, y: 0).style.attributes.contains(.bold))
    /// ```
    public func cell(x: Int, y: Int) -> Cell {
        virtualTerminal.grid[x: x, y: y]
    }

    /// Where the terminal's cursor is shown (a text field with the focus
    /// shows it), or `nil` while it is hidden.
    public var screenCursor: Point? {
        let terminal = virtualTerminal
        return terminal.isCursorVisible ? terminal.cursor : nil
    }

    /// The whole model of the terminal the screen comes from: its grid,
    /// cursor, current style and modes (alternate screen, bracketed paste,
    /// mouse reporting).
    public var virtualTerminal: VirtualTerminal {
        guard let simulated = context.simulatedTerminal else { return VirtualTerminal(size: Size(width: 80, height: 24)) }
        return SimulatedScreen.of(simulated).terminal
    }

    /// Whether the app's terminal modes are on: raw mode, and what it
    /// turned on (the alternate screen, a hidden cursor, ...), between
    /// its runtime's start and the terminal being given back.
    public var terminalModesAreOn: Bool {
        context.simulatedTerminal?.isEntered ?? false
    }

    /// Whether the terminal is as the app found it: raw mode off, the
    /// normal screen shown, the cursor visible, bracketed paste and mouse
    /// reporting off, and the plain style. True before an app draws, and
    /// what each way out of a terminal app must leave behind.
    ///
    /// ```swift
    /// app.press(.ctrl("c"))
    /// #expect(app.hasExited)
    /// #expect(app.isTerminalRestored)
    /// ```
    public var isTerminalRestored: Bool {
        let terminal = virtualTerminal
        return !terminalModesAreOn && !terminal.isAlternateScreen && terminal.isCursorVisible
            && !terminal.isBracketedPaste && !terminal.isMouseReporting && terminal.style == .plain
    }

    /// Whether the app stopped itself as a shell job (Ctrl+Z with no
    /// binding for it) and waits to be continued. A live app would stop
    /// in `kill(0, SIGTSTP)` after giving the terminal back; a test app
    /// only records the stop (its clock and the test go on) and continues
    /// when the test sends SIGCONT, as a shell's `fg` does: the modes come
    /// back and the whole screen is drawn again.
    ///
    /// ```swift
    /// app.press(.ctrl("z"))
    /// #expect(app.isSuspended && app.isTerminalRestored)
    /// app.send(.continue)
    /// #expect(!app.isSuspended && app.screen == before)
    /// ```
    public var isSuspended: Bool {
        context.simulatedTerminal?.isSuspended ?? false
    }

    // MARK: Typing

    /// How long `press(_:times:sourceLocation:)` lets the clock run after
    /// a key a terminal device holds (a lone Escape, Alt+`[`, Alt+`O`):
    /// just past the wait of the app's device for the rest of a sequence
    /// (30 ms unless it was set otherwise).
    var escapeSettleDelay: Duration {
        (context.terminalScreen?.device.escapeDelay ?? .milliseconds(30)) + .milliseconds(1)
    }

    /// Presses `key` (`times` times) as a user at xterm would: its bytes
    /// (`KeyEvent.bytes`) are typed on the app's terminal, one read per
    /// press, and the app runs until idle after each (a frame drawn, when
    /// something changed). After a key the app's terminal holds for a
    /// moment (Escape, Alt+`[`, Alt+`O`), virtual time moves on past its
    /// wait (31 ms), so that it arrives as that key.
    ///
    /// ```swift
    /// app.press(.down, times: 3)
    /// app.press(.ctrl("c"))
    /// app.press(KeyEvent.up.with(.shift))
    /// ```
    ///
    /// A key no terminal sends apart (Shift+a, Ctrl+Shift+a, Ctrl+h: see
    /// `KeyEvent.bytes`) cannot be pressed: the test records an issue
    /// naming it, and nothing is typed.
    public func press(_ key: KeyEvent, times: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let bytes = key.bytes else {
            Issue.record("\(key) cannot be pressed: a terminal sends it as another key or not at all (see KeyEvent.bytes).", sourceLocation: sourceLocation)
            return
        }
        var decoder = InputDecoder()
        decoder.decode(bytes)
        let isHeld = decoder.isHolding
        for _ in 0..<max(0, times) {
            typeBytes(bytes)
            if isHeld { advance(by: escapeSettleDelay) }
        }
    }

    /// Types `text` in one read, as a quick typist (or `tmux send-keys`)
    /// does: each character is the key that sends it (`"\n"` is Enter,
    /// `"\t"` Tab), and the app runs until idle afterwards.
    ///
    /// ```swift
    /// app.type("milk\n")
    /// ```
    public func type(_ text: String) {
        typeBytes(Self.terminalBytes(text))
    }

    /// Pastes `text` as a terminal does: in one piece, between the
    /// bracketed-paste markers, when the app turned bracketed paste on
    /// (the standard modes do; the app gets one `.paste`); typed as keys,
    /// like `type(_:)`, when it did not. Line breaks are sent as
    /// carriage returns, as terminals paste them. The app runs until idle
    /// afterwards.
    public func paste(_ text: String) {
        let bytes = Self.terminalBytes(text)
        if virtualTerminal.isBracketedPaste {
            typeBytes(Array("\u{1B}[200~".utf8) + bytes + Array("\u{1B}[201~".utf8))
        } else {
            typeBytes(bytes)
        }
    }

    /// Clicks at column `x`, row `y` (from the top left, 0, 0): a press
    /// and a release of `button`, each an SGR mouse report read apart,
    /// the app running until idle after each. A terminal reports a click
    /// only while the app has mouse reporting on (`TerminalModes.mouse`);
    /// otherwise nothing is sent and the result is `false`.
    @discardableResult
    public func click(x: Int, y: Int, button: MouseEvent.Button = .left, modifiers: KeyModifiers = [], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard virtualTerminal.isMouseReporting else { return false }
        let position = Point(x: x, y: y)
        guard let press = MouseEvent(.press(button), at: position, modifiers: modifiers).bytes,
              let release = MouseEvent(.release(button), at: position, modifiers: modifiers).bytes
        else {
            Issue.record("A click at (\(x), \(y)) with \(button) cannot be reported (see MouseEvent.bytes).", sourceLocation: sourceLocation)
            return false
        }
        typeBytes(press)
        typeBytes(release)
        return true
    }

    /// Resizes the terminal to `width` columns and `height` rows (each at
    /// least 1), as a user resizing the window: the screen keeps what
    /// fits, the app hears of it as of SIGWINCH and runs until idle (it
    /// relayouts and redraws). Called in `TestApp`'s `setUp`, the app
    /// starts at that size.
    ///
    /// ```swift
    /// let app = TestApp(NotesApp.self, setUp: { $0.resize(width: 40, height: 10) })
    /// ```
    public func resize(width: Int, height: Int) {
        guard let simulated = context.simulatedTerminal else { return }
        let size = Size(width: max(1, width), height: max(1, height))
        SimulatedScreen.of(simulated).resize(to: size)
        simulated.resize(columns: size.width, rows: size.height)
        runUntilIdle()
    }

    private func typeBytes(_ bytes: [UInt8]) {
        context.simulatedTerminal?.type(bytes)
        runUntilIdle()
    }

    /// `text`'s UTF-8, each line break (`"\n"`, `"\r\n"`) as a carriage
    /// return (what Enter sends).
    static func terminalBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x0A {
                if previous != 0x0D { bytes.append(0x0D) }
            } else {
                bytes.append(byte)
            }
            previous = byte
        }
        return bytes
    }
}
