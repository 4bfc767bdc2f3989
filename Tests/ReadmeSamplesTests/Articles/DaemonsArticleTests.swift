import ComposeApp
import ComposeTesting
import Testing

// Sources/ComposeApp/ComposeApp.docc/DaemonsAndIO.md. The shouter and the
// greeter are the README's (TestAppSampleTests, ConfigurationSampleTests);
// this is the console.

@MainActor
final class ConsoleLog {
    var lines: [String] = []
}

struct Console: Component {
    let input = StandardInput()
    let hangup = ProcessSignal(.hangup)
    let log = ConsoleLog()
    var observers: Void {
        input += { command in
            log.lines.append("> \(command)")
            if command == "quit" { Application.shutdown(status: 0) }
        }
        input.didReachEnd += { Application.shutdown(status: 0) }     // Ctrl-D
        hangup += { _ in log.lines.append("reloading") }        // kill -HUP
    }
}

@MainActor
@Test func theConsoleReadsLinesAndEndsWithItsInput() {
    let app = TestApp(root: Console())
    app.standardInput.write("status\n")
    app.send(.hangup)
    #expect(app.root(as: Console.self)?.log.lines == ["> status", "reloading"])
    #expect(app.exitStatus == nil)

    app.standardInput.close()
    #expect(app.exitStatus == 0)
}
