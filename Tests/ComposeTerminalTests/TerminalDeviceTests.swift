@testable import ComposeTerminal
import ComposeTesting
import Testing

/// The device on a test context's simulated terminal: modes on and off,
/// frames, decoded input through the loop's clock, the Escape delay,
/// resizes, limits as diagnostics, and no terminal at all.
@MainActor
@Suite struct TerminalDeviceTests {
    struct Root: Component {
        var observers: Void { None }
    }

    static func make() -> (TestApp, SimulatedTerminal) {
        let app = TestApp(root: Root())
        return (app, app.context.simulatedTerminal!)
    }

    @Test func startTurnsTheModesOnAndStopTurnsExactlyThoseOff() {
        let (app, terminal) = Self.make()
        let device = app.run { TerminalDevice(modes: .standard.union(.mouse)) }
        #expect(device.isTerminal)
        #expect(app.run { device.start() })
        #expect(terminal.isEntered)
        #expect(terminal.writes == [TerminalModes.standard.union(.mouse).enterSequence])
        #expect(terminal.restoreSequence == TerminalModes.standard.union(.mouse).leaveSequence)
        app.run { _ = device.write(Array("frame".utf8)) }
        #expect(terminal.writes.count == 2)
        #expect(terminal.writes.last == Array("frame".utf8))
        app.run { device.stop() }
        #expect(!terminal.isEntered)
        #expect(terminal.writes.last == TerminalModes.standard.union(.mouse).leaveSequence)
        // Stopped: nothing more is written, and stopping again changes nothing.
        #expect(app.run { !device.write([0x41]) })
        app.run { device.stop() }
        #expect(terminal.writes.count == 3)
    }

    @Test func typedBytesArriveDecodedAndALoneEscapeAfterTheDelay() {
        let (app, terminal) = Self.make()
        let device = app.run { TerminalDevice() }
        var received: [TerminalInput] = []
        app.run {
            device.input += { received.append($0) }
            device.start()
        }
        terminal.type(Array("a\u{1B}[1;5".utf8))
        app.runUntilIdle()
        #expect(received == [.key("a")])
        terminal.type(Array("A\u{1B}".utf8))
        app.runUntilIdle()
        #expect(received == [.key("a"), .key(KeyEvent.up.with(.control))])
        app.advance(by: .milliseconds(29))
        #expect(received.count == 2)
        app.advance(by: .milliseconds(1))
        #expect(received.last == .key(.escape))
        // An Escape followed in time by the rest of its sequence is no key.
        terminal.type([0x1B])
        app.advance(by: .milliseconds(10))
        terminal.type(Array("[B".utf8))
        app.advance(by: .milliseconds(100))
        #expect(received.suffix(2) == [.key(.escape), .key(.down)])
    }

    @Test func aResizeIsSentWithTheNewSize() {
        let (app, terminal) = Self.make()
        let device = app.run { TerminalDevice() }
        var sizes: [Size] = []
        app.run {
            device.resized += { sizes.append($0) }
            device.start()
        }
        #expect(device.size == Size(width: 80, height: 24))
        terminal.resize(columns: 120, rows: 40)
        app.runUntilIdle()
        #expect(sizes == [Size(width: 120, height: 40)])
        #expect(device.size == Size(width: 120, height: 40))
    }

    @Test func aPasteOverTheLimitIsDeliveredCutWithADiagnostic() {
        let (app, terminal) = Self.make()
        let device = app.run { TerminalDevice(limits: InputDecoder.Limits(maximumPasteBytes: 4)) }
        var received: [TerminalInput] = []
        app.run {
            device.input += { received.append($0) }
            device.start()
        }
        terminal.type(Array("\u{1B}[200~abcdefgh\u{1B}[201~".utf8))
        app.runUntilIdle()
        #expect(received == [.paste("abcd")])
        #expect(app.diagnostics.map(\.code) == [.terminalPasteTruncated])
        #expect(app.diagnostics.first?.message.contains("4 bytes") == true)
    }

    @Test func withoutATerminalNothingIsWrittenOrChanged() {
        let (app, terminal) = Self.make()
        terminal.isTerminal = false
        let device = app.run { TerminalDevice() }
        #expect(!device.isTerminal)
        #expect(app.run { !device.start() })
        #expect(app.run { !device.write(Array("frame".utf8)) })
        #expect(terminal.output.isEmpty)
        #expect(!terminal.isEntered)
    }
}
