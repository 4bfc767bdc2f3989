@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// A component that owns a shell leaving two marked sleeps in its group.
private struct GroupOwner: Component {
    let shell: ChildProcess
    var observers: Void { None }

    init(_ marked: MarkedProcesses) {
        shell = ChildProcess("/bin/sh", arguments: ["-c", marked.script()], startsWithComponent: true)
    }
}

/// Each child has a process group of its own, and every way of stopping it
/// reaches the whole group. Real processes: groups are the kernel's.
@MainActor
@Suite(.serialized, .liveLoop) struct ChildProcessGroupTests {
    /// Starts `process` (a shell of `marked.script()`) and runs the loop until
    /// it said "ready" and both sleeps run.
    private func startAndWaitForTheSleeps(_ process: ChildProcess, _ marked: MarkedProcesses) throws {
        var lines: [String] = []
        process.output += { lines.append($0) }
        try process.start()
        #expect(LoopDriver.run(until: { lines == ["ready"] }))
        // Bounded poll of /proc: the sleeps exec after "ready" (see MarkedProcesses.wait).
        #expect(LoopDriver.run(until: { marked.bothRun }, timeout: .seconds(5)), "\(marked.pids)")
    }

    @Test func terminateStopsWhatTheChildStartedInItsGroup() throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let process = ChildProcess("/bin/sh", arguments: ["-c", marked.script()])
        var exits: [ChildProcess.Termination] = []
        process.didExit += { exits.append($0) }
        try startAndWaitForTheSleeps(process, marked)

        process.terminate()
        #expect(LoopDriver.run(until: { !exits.isEmpty }))
        #expect(exits.first?.signal == SIGTERM)
        #expect(LoopDriver.run(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func theChildLeadsAProcessGroupOfItsOwn() throws {
        let process = ChildProcess("sleep", arguments: ["30"])
        var exits = 0
        process.didExit += { _ in exits += 1 }
        try process.start()
        let pid = try #require(process.pid)
        #expect(getpgid(pid) == pid)
        #expect(getsid(pid) == pid)
        #expect(getpgid(pid) != getpgid(0))
        process.kill(.kill)
        #expect(LoopDriver.run(until: { exits == 1 }))
    }

    @Test func destroyingTheOwningComponentStopsTheWholeGroup() throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let tree = ComponentTree(GroupOwner(marked))
        let shell = try #require(tree.root.value(as: GroupOwner.self)?.shell)
        var lines: [String] = []
        shell.output += { lines.append($0) }
        tree.activate()
        #expect(LoopDriver.run(until: { lines == ["ready"] }))
        #expect(LoopDriver.run(until: { marked.bothRun }, timeout: .seconds(5)), "\(marked.pids)")

        tree.destroy()
        #expect(LoopDriver.run(until: { shell.termination != nil }))
        #expect(LoopDriver.run(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func theGroupOutlivesItsLeaderAndIsStillStoppedByItsOwner() throws {
        // The shell exits at once; its sleeps stay in its group.
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let script = "sleep \(marked.markers[0]) & sleep \(marked.markers[1]) & echo ready"
        let process = ChildProcess("/bin/sh", arguments: ["-c", script])
        var exits: [ChildProcess.Termination] = []
        process.didExit += { exits.append($0) }
        try process.start()
        #expect(LoopDriver.run(until: { !exits.isEmpty }))
        #expect(exits.first?.succeeded == true)
        #expect(LoopDriver.run(until: { marked.bothRun }, timeout: .seconds(5)), "\(marked.pids)")

        process.close()
        #expect(LoopDriver.run(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func whatIgnoresSIGTERMInTheGroupIsKilledAfterTheGracePeriod() throws {
        let marked = MarkedProcesses()
        defer { marked.killLeftovers() }
        let process = ChildProcess("/bin/sh", arguments: ["-c", marked.script(ignoringTerm: true)])
        process.terminationGracePeriod = .milliseconds(100)
        var exits: [ChildProcess.Termination] = []
        process.didExit += { exits.append($0) }
        try startAndWaitForTheSleeps(process, marked)

        process.terminate()
        #expect(LoopDriver.run(until: { !exits.isEmpty }))
        #expect(exits.first?.signal == SIGKILL)
        #expect(LoopDriver.run(until: { marked.pids.isEmpty }, timeout: .seconds(3)), "left behind: \(marked.pids)")
    }

    @Test func anInheritedEnvironmentCanBeAddedTo() throws {
        setenv("COMPOSE_CHILD_GROUP_TEST", "inherited", 1)
        defer { unsetenv("COMPOSE_CHILD_GROUP_TEST") }
        var lines: [String] = []
        var exited = false
        let script = "echo $COMPOSE_CHILD_GROUP_TEST $ADDED"
        let added = ChildProcess("/bin/sh", arguments: ["-c", script], environment: .inherit(adding: ["ADDED": "yes"]))
        added.output += { lines.append($0) }
        added.didExit += { _ in exited = true }
        try added.start()
        #expect(LoopDriver.run(until: { exited }))
        exited = false
        let clean = ChildProcess("/bin/sh", arguments: ["-c", script], environment: .clean(["ADDED": "only"]))
        clean.output += { lines.append($0) }
        clean.didExit += { _ in exited = true }
        try clean.start()
        #expect(LoopDriver.run(until: { exited }))
        #expect(lines == ["inherited yes", "only"])
    }

    @Test func aUserAndGroupAreTakenOrTheStartFailsWithATypedError() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "id -u; id -g"], user: 65534, group: 65534)
        var lines: [String] = []
        var exited = false
        process.output += { lines.append($0) }
        process.didExit += { _ in exited = true }
        if getuid() == 0 {
            try process.start()
            #expect(LoopDriver.run(until: { exited }))
            #expect(lines == ["65534", "65534"])
        } else {
            #expect {
                try process.start()
            } throws: { error in
                (error as? LoopError)?.kind == .operationNotPermitted
            }
        }
    }
}
