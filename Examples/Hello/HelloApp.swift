// A first Compose app: `make run` starts it.
//
// The root component routes between two screens, reads lines from
// standard input and greets them, and stops after a countdown or on Ctrl-C
// (graceful shutdown: every component disappears, children first). The chat daemon of Examples/Chat will
// replace it as the app `make run` starts.
import ComposeApp

/// A screen that greets the names it is sent.
struct GreeterComponent: Component {
    let greet = Emitter<String>()
}

extension GreeterComponent {
    var observers: Void {
        didAppear += { Application.print("[greeter] appeared") }
        didDisappear += { Application.print("[greeter] disappeared") }
        greet += { name in Application.print("Hello, \(name)!") }
    }
}

/// A screen that counts down and then asks the app to stop.
struct CountdownComponent: Component {
    let tick = LoopTimer(every: .seconds(1))   // runs while this screen is active
    let finished = SignalEmitter()
}

extension CountdownComponent {
    var observers: Void {
        didAppear += { Application.print("[countdown] appeared") }
        var remaining = 5
        tick += {
            Application.print("[countdown] \(remaining)")
            remaining -= 1
            if remaining == 0 { finished.send() }
        }
    }
}

@main
struct HelloApp: RouterComponent {
    let greeter = GreeterComponent()
    let countdown = CountdownComponent()
    let input = StandardInput()
    let router = Router(start: \Self.greeter)
}

extension HelloApp {
    var observers: Void {
        greeter.didAppear += {
            for name in ["Linux", "Compose"] { greeter.greet.send(name) }
            Application.print("Type a name and press Return; the app stops after the countdown.")
            router.push(\Self.countdown)   // both screens are now active
        }
        input += { line in
            if !line.isEmpty { greeter.greet.send(line) }
        }
        countdown.finished += { Application.shutdown() }
    }
}

extension HelloApp: StartupComponent {
    func didBindRootComponent() {
        Application.print("Bound \(Application.tree?.statistics.nodes ?? 0) components; route: \(Application.currentRoute)")
    }
}
