import ComposeApp
import ComposeTerminal
import ComposeTerminalTesting
import ComposeTesting
import Testing

/// `app.screen`, `app.press(...)` and the rest over a terminal device that
/// a test drives itself (no runtime): frames from a FrameRenderer reach
/// the screen as a terminal shows them, typed keys reach the device
/// decoded, resizes and restoration are seen.
@MainActor
@Suite struct TerminalPlumbingTests {
    struct Root: Component {
        var observers: Void { None }
    }

    /// A test app with a started device, the inputs it received, and a
    /// function drawing `lines` as a frame (cursor at `cursor`).
    @MainActor
    final class Harness {
        let app: TestApp
        let device: TerminalDevice
        var received: [TerminalInput] = []
        var sizes: [Size] = []
        var renderer = FrameRenderer()

        init(modes: TerminalModes = .standard, setUp: (TestApp) -> Void = { _ in }) {
            app = TestApp(root: Root(), setUp: setUp)
            device = app.run { TerminalDevice(modes: modes) }
            app.run {
                device.input += { [unowned self] in self.received.append($0) }
                device.resized += { [unowned self] in self.sizes.append($0) }
                device.start()
            }
        }

        func draw(_ lines: [String], style: Style = .plain, cursor: Point? = nil) {
            var grid = CellGrid(size: device.size)
            for (y, line) in lines.enumerated() { grid.put(line, at: Point(x: 0, y: y), style: style) }
            var bytes: [UInt8] = []
            renderer.render(grid, cursor: cursor, into: &bytes)
            app.run { _ = device.write(bytes) }
        }
    }

    @Test func theScreenShowsTheFramesAsATerminalDoes() {
        let harness = Harness()
        let app = harness.app
        #expect(app.screen == "")
        harness.draw(["count: 1", "", "+ more  q quit"], style: Style(attributes: .bold))
        #expect(app.screen == "count: 1\n\n+ more  q quit")
        #expect(app.screenLines.count == 24)
        #expect(app.screenLines[2] == "+ more  q quit")
        #expect(app.screenLines[23] == "")
        #expect(app.cell(x: 0, y: 0).character == "c")
        #expect(app.cell(x: 0, y: 0).style.attributes.contains(.bold))
        #expect(app.cell(x: 200, y: 0) == .blank)
        #expect(app.screenCursor == nil)
        // The next frame changes one cell: the screen follows, incrementally.
        harness.draw(["count: 2", "", "+ more  q quit"], cursor: Point(x: 7, y: 0))
        #expect(app.screen == "count: 2\n\n+ more  q quit")
        #expect(app.screenCursor == Point(x: 7, y: 0))
        #expect(app.cell(x: 0, y: 0).style == .plain)
        // Output forgotten by the simulated terminal after it was seen
        // changes nothing; the frames after it still apply.
        app.context.simulatedTerminal!.clearOutput()
        harness.draw(["count: 3", "", "+ more  q quit"])
        #expect(app.screen == "count: 3\n\n+ more  q quit")
    }

    @Test func wideCharactersTakeTwoCellsAndReadAsOne() {
        let harness = Harness()
        harness.draw(["日本 ok"])
        #expect(harness.app.screen == "日本 ok")
        #expect(harness.app.cell(x: 0, y: 0).width == 2)
        #expect(harness.app.cell(x: 1, y: 0).isContinuation)
        #expect(harness.app.cell(x: 5, y: 0).character == "o")
    }

    @Test func keysArriveDecodedOnePressAtATime() {
        let harness = Harness()
        let app = harness.app
        app.press(.up)
        app.press("q")
        app.press(.ctrl("c"))
        app.press(KeyEvent.delete.with([.control, .shift]))
        app.press(.function(5))
        #expect(harness.received == [.key(.up), .key("q"), .key(.ctrl("c")), .key(KeyEvent.delete.with([.control, .shift])), .key(.function(5))])
        harness.received.removeAll()
        app.press(.down, times: 3)
        #expect(harness.received == Array(repeating: .key(.down), count: 3))
    }

    @Test func aLoneEscapeArrivesAfterTheDeviceWaited() {
        let harness = Harness()
        let start = harness.app.now
        harness.app.press(.escape)
        #expect(harness.received == [.key(.escape)])
        #expect(harness.app.now - start >= .milliseconds(30))
        harness.app.press(.alt("["))
        #expect(harness.received == [.key(.escape), .key(.alt("["))])
        // A key that is complete at once moves no time.
        let before = harness.app.now
        harness.app.press(.alt("x"), times: 2)
        #expect(harness.app.now == before)
        #expect(harness.received.suffix(2) == [.key(.alt("x")), .key(.alt("x"))])
    }

    @Test func aKeyNoTerminalSendsIsAnIssueAndTypesNothing() {
        let harness = Harness()
        withKnownIssue {
            harness.app.press(KeyEvent(.character("a"), modifiers: .shift))
        }
        withKnownIssue {
            harness.app.press(.ctrl("h"))
        }
        #expect(harness.received.isEmpty)
    }

    @Test func typedTextIsItsKeysAndLineBreaksAreEnter() {
        let harness = Harness()
        harness.app.type("mi日\nk\r\n")
        #expect(harness.received == [.key("m"), .key("i"), .key("日"), .key(.enter), .key("k"), .key(.enter)])
    }

    @Test func aPasteIsOnePieceWhenBracketedPasteIsOn() {
        let harness = Harness()
        harness.app.paste("milk\neggs")
        #expect(harness.received == [.paste("milk\neggs")])

        let plain = Harness(modes: [.alternateScreen])
        plain.app.paste("ok\n")
        #expect(plain.received == [.key("o"), .key("k"), .key(.enter)])
    }

    @Test func aClickIsAPressAndAReleaseOnlyWithMouseReportingOn() {
        let harness = Harness()
        #expect(!harness.app.click(x: 3, y: 1))
        #expect(harness.received.isEmpty)

        let mouse = Harness(modes: TerminalModes.standard.union(.mouse))
        #expect(mouse.app.click(x: 3, y: 1))
        #expect(mouse.received == [
            .mouse(MouseEvent(.press(.left), at: Point(x: 3, y: 1))),
            .mouse(MouseEvent(.release(.left), at: Point(x: 3, y: 1))),
        ])
        mouse.received.removeAll()
        mouse.app.click(x: 0, y: 0, button: .right, modifiers: .control)
        #expect(mouse.received.first == .mouse(MouseEvent(.press(.right), at: .zero, modifiers: .control)))
    }

    @Test func aResizeReachesTheAppAndTheScreenKeepsWhatFits() {
        let harness = Harness()
        let app = harness.app
        harness.draw(["0123456789", "second"])
        app.resize(width: 5, height: 1)
        #expect(harness.sizes == [Size(width: 5, height: 1)])
        // Before the app redraws, the screen shows what fitted.
        #expect(app.screenLines == ["01234"])
        harness.draw(["abc"])
        #expect(app.screen == "abc")
        app.resize(width: 30, height: 3)
        harness.draw(["wider", "", "bottom"])
        #expect(app.screen == "wider\n\nbottom")
        #expect(app.virtualTerminal.grid.size == Size(width: 30, height: 3))
    }

    @Test func anAppStartsAtTheSizeSetUpGave() {
        let harness = Harness(setUp: { $0.resize(width: 40, height: 5) })
        #expect(harness.device.size == Size(width: 40, height: 5))
        harness.draw(["hello"])
        #expect(harness.app.screenLines.count == 5)
        #expect(harness.app.virtualTerminal.grid.size.width == 40)
    }

    @Test func theTerminalIsRestoredBeforeStartAndAfterStop() {
        let app = TestApp(root: Root())
        #expect(app.isTerminalRestored)
        #expect(!app.terminalModesAreOn)
        let device = app.run { TerminalDevice(modes: TerminalModes.standard.union(.mouse)) }
        app.run { _ = device.start() }
        #expect(app.terminalModesAreOn)
        #expect(!app.isTerminalRestored)
        #expect(app.virtualTerminal.isAlternateScreen)
        var renderer = FrameRenderer()
        var bytes: [UInt8] = []
        var grid = CellGrid(size: device.size)
        grid.put("on the alternate screen", at: .zero, style: Style(foreground: .red))
        renderer.render(grid, into: &bytes)
        app.run { _ = device.write(bytes) }
        #expect(app.screen == "on the alternate screen")
        app.run { device.stop() }
        #expect(app.isTerminalRestored)
        // The main screen is back, as the shell left it.
        #expect(app.screen == "")
    }
}
