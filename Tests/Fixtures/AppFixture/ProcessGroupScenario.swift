import ComposeApp

/// `processGroup`: a component owns `/bin/sh -c` COMPOSE_GROUP_SCRIPT (a
/// shell that starts marked sleeps in the background and says "ready") and
/// says "group ready" once the shell did. With COMPOSE_GROUP_GRACE_MS the
/// child's termination grace period is that long (a test of the deadline
/// or of the second signal makes it longer than the shutdown). With
/// COMPOSE_GROUP_DIES_WITH_APP=1 the shell is told to die with the app
/// (`parentDeathSignal: .kill`).
struct ProcessGroupScenario: Component {
    let shell: ChildProcess

    init() {
        let script = environment("COMPOSE_GROUP_SCRIPT") ?? "echo ready"
        let diesWithApp = environment("COMPOSE_GROUP_DIES_WITH_APP") == "1"
        let shell = ChildProcess(
            "/bin/sh", arguments: ["-c", script],
            parentDeathSignal: diesWithApp ? .kill : nil,
            startsWithComponent: true
        )
        if let milliseconds = environment("COMPOSE_GROUP_GRACE_MS").flatMap({ Int($0) }) {
            shell.terminationGracePeriod = .milliseconds(milliseconds)
        }
        self.shell = shell
    }

    var observers: Void {
        shell.output += { line in
            if line == "ready" { say("group ready") }
        }
        shell.didExit += { termination in say("shell \(termination)") }
    }
}
