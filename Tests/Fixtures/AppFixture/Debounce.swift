import ComposeApp

/// `debounce`: three values back to back through a 50 ms debounce on the
/// app's clock; only the last may come out. The app lingers 150 ms
/// after the first delivery (to catch a late second one), then shuts down.
struct Debounce: Component {
    let values = Emitter<Int>()
    let linger = LoopTimer(after: .milliseconds(150), startsWithComponent: false)
    var observers: Void {
        values.debounce(for: .milliseconds(50)) += { value in
            say("debounced \(value)")
            if !linger.isRunning { linger.start() }
        }
        linger += { Application.shutdown() }
        didAppear += {
            values.send(1)
            values.send(2)
            values.send(3)
        }
    }
}
