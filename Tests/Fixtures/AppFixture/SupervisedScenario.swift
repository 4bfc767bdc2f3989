import ComposeApp

/// `supervised`: a worker program (`/bin/sh`) that says it started and
/// exits with status 3, supervised with a 20 ms backoff (doubling, no
/// jitter) and an intensity of 2 restarts: it runs three times, then the
/// supervisor gives up, and with no supervisor above it the process exits
/// with status 70.
struct SupervisedScenario: Component {
    let supervisor = Supervisor(
        intensity: .init(restarts: 2, within: .seconds(60)),
        backoff: Backoff(initial: .milliseconds(20), maximum: .seconds(1), jitter: 0)
    )
    let worker = Supervised(CrashingProgram())

    var observers: Void {
        supervisor.didRestart += { say("restarted \($0.child) (\($0.count)) after \($0.delay)") }
        supervisor.didGiveUp += { _ in say("gave up") }
    }
}

/// Starts `/bin/sh`, which says so and exits with status 3.
struct CrashingProgram: Component {
    let program = ChildProcess("/bin/sh", arguments: ["-c", "echo started; exit 3"], startsWithComponent: true, fatal: true)

    var observers: Void {
        program.output += { say("worker \($0)") }
    }
}
