@_spi(Testing) import ComposeApp

/// `reentry`: drives the loop from code the loop runs, which must stop the
/// process with a precondition failure naming the call (the loop is not
/// reentrant). COMPOSE_REENTRY picks where from:
///
/// - `timer` (default): `LoopDriver.run(until:)` in a timer's observer;
/// - `stdin`: `LoopDriver.settle()` in the observer of a standard input
///   line, a delivery of the runtime's read path;
/// - `task`: `LoopDriver.settle()` in a task an observer started, which
///   the loop runs when it drains the main queue.
///
/// Says "reentering" just before the call; a "survived" line means the
/// call returned (a failure of the test).
struct ReentryScenario: Component {
    let timer = LoopTimer(after: .milliseconds(1))
    let input = StandardInput()
    /// Ends a run whose re-entry never came. Long: under ThreadSanitizer on
    /// a loaded machine the test saw "appear" and wrote its line more than
    /// 10 s after the fixture started, and the fixture had shut down.
    let keepAlive = LoopTimer(after: .seconds(60))

    var observers: Void {
        let variant = environment("COMPOSE_REENTRY") ?? "timer"
        didAppear += { say("appear reentry \(variant)") }
        timer += {
            switch variant {
            case "timer":
                say("reentering")
                LoopDriver.run(until: { false }, timeout: .milliseconds(10))
                say("survived")
            case "task":
                Task { @MainActor in
                    say("reentering")
                    LoopDriver.settle()
                    say("survived")
                }
            default:
                break
            }
        }
        input += { line in
            guard variant == "stdin" else { return }
            say("reentering")
            LoopDriver.settle()
            say("survived \(line)")
        }
        keepAlive += { Application.shutdown() }
    }
}
