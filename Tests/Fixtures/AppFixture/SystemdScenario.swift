import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// `systemd`: run under a NOTIFY_SOCKET the test binds. It sets its status
/// line, starts a child that prints what it inherited of systemd's
/// variables ("child NOTIFY_SOCKET=unset WATCHDOG_USEC=unset ..."), and on
/// SIGUSR1 blocks its loop for a second between "blocking" and
/// "unblocked", as a stuck handler would. Runs until SIGTERM.
struct SystemdScenario: Component {
    let keepAlive = LoopTimer(every: .seconds(3600))
    let user1 = ProcessSignal(.user1)
    let child = ChildProcess(
        "/bin/sh",
        arguments: ["-c", "echo child NOTIFY_SOCKET=${NOTIFY_SOCKET-unset} WATCHDOG_USEC=${WATCHDOG_USEC-unset} WATCHDOG_PID=${WATCHDOG_PID-unset}"],
        startsWithComponent: true
    )

    var observers: Void {
        didAppear += { Application.systemd.status = "fixture running" }
        child.output += { say($0) }
        user1 += { _ in
            say("blocking")
            // The loop's thread is busy: no timer, no watchdog ping.
            usleep(1_000_000)   // real time: the blocked loop is the subject
            say("unblocked")
        }
    }
}
