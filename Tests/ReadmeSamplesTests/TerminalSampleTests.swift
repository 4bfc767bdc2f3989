// README.md, "A terminal app": a counter whose root shows views, and its
// test on TestApp's virtual screen.

import ComposeApp
import ComposeTerminalTesting
import ComposeTesting
import Testing
import ComposeTerminal   // views, keys, the help line; apps that do not import it pay nothing

struct Counter: PassiveComponent, StartupComponent, ViewComponent {
    @Store var count = 0   // PassiveComponent: no observers
    var view: some View {   // computed again after every change
        VStack {
            Text("count: \(count)")
            Spacer()
            HelpLine()      // the keys that work: "+ more  q quit  Ctrl+C quit"
        }
    }
    var keyBindings: [KeyBinding] {
        KeyBinding("+", "more") { count += 1 }
        KeyBinding("q", "quit") { Application.shutdown() }
    }
}

@MainActor
@Test func keysChangeWhatTheScreenShows() {
    let app = TestApp(Counter.self)      // an 80x24 virtual terminal
    app.press("+", times: 2)
    #expect(app.screenLines.first == "count: 2")
    #expect(app.screenLines.last == "+ more  q quit  Ctrl+C quit")

    app.press("q")
    #expect(app.exitStatus == 0)
    #expect(app.isTerminalRestored)
}
