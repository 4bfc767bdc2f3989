import ComposeApp
import ComposeTesting
import Testing

/// Starts a confined `worker` (every option set) when it appears.
private struct ConfinedSupervisor: Component {
    let child: ChildProcess
    let journal = Journal()

    init(umask: UInt16 = 0o027) {
        child = ChildProcess(
            "worker", arguments: ["--once", "$(not a script)"],
            limits: .init(openFiles: 64, addressSpace: 1 << 30, cpuSeconds: 10),
            umask: umask, parentDeathSignal: .kill,
            startsWithComponent: true
        )
    }

    var observers: Void {
        child.output += { journal.entries.append("out: \($0)") }
        child.didExit += { journal.entries.append("exit: \($0)") }
        child.errors += { journal.entries.append("error: \($0.kind)") }
    }
}

/// Resource limits, umask and the parent-death signal in a test context:
/// nothing is spawned, so they are validated but not applied, and the
/// script plays the executable as given (no wrapper).
@MainActor
@Suite struct TestAppConfinementTests {
    @Test func aConfinedChildRunsItsScriptWithItsOwnExecutableAndArguments() throws {
        let worker = Box<ScriptedProcess>()
        let app = TestApp(root: ConfinedSupervisor()) { app in
            worker.value = app.scriptProcess("worker") { run in
                run.writeOutput(([run.executable] + run.arguments).joined(separator: " ") + "\n")
                run.exit(status: 4)
            }
        }
        let supervisor = try #require(app.root(as: ConfinedSupervisor.self))
        #expect(supervisor.journal.entries == ["out: worker --once $(not a script)", "exit: exited with status 4"])
        #expect(supervisor.child.pid == worker.value?.runs.first?.pid)
    }

    @Test func anOptionOutOfRangeFailsTheStartAsItWouldLive() throws {
        let app = TestApp(root: ConfinedSupervisor(umask: 0o1000)) { app in
            app.scriptProcess("worker") { run in run.exit(status: 0) }
        }
        let supervisor = try #require(app.root(as: ConfinedSupervisor.self))
        #expect(supervisor.journal.entries == ["error: invalidArgument"])
        #expect(!supervisor.child.isRunning)
    }
}
