@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Collects what a child process reports.
@MainActor
private final class ProcessProbe {
    var output: [String] = []
    var errorOutput: [String] = []
    var exits: [ChildProcess.Termination] = []
    var errors: [LoopError] = []
    /// How many output and error lines had arrived when didExit was sent.
    var linesAtExit: (output: Int, error: Int)?

    init(_ process: ChildProcess) {
        process.output += { self.output.append($0) }
        process.errorOutput += { self.errorOutput.append($0) }
        process.errors += { self.errors.append($0) }
        process.didExit += { termination in
            self.exits.append(termination)
            self.linesAtExit = (self.output.count, self.errorOutput.count)
        }
    }

    /// Runs the loop until the child exited; returns how.
    func waitForExit() -> ChildProcess.Termination? {
        LoopDriver.run(until: { !self.exits.isEmpty })
        return exits.first
    }
}

private struct ProcessParent: Component {
    let worker = ChildProcess("sleep", arguments: ["30"], startsWithComponent: true)
    var observers: Void { None }
}

/// Whether `pid` names no process at all (not even a zombie).
private func isGone(_ pid: Int32) -> Bool {
    kill(pid, 0) == -1 && errno == ESRCH
}

@MainActor
@Suite(.serialized, .liveLoop) struct ChildProcessTests {
    @Test func outputAndErrorLinesArriveBeforeTheExit() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "echo one; echo two >&2; printf three"])
        let probe = ProcessProbe(process)
        try process.start()
        #expect(process.isRunning)
        #expect(process.pid != nil)

        let termination = try #require(probe.waitForExit())
        #expect(termination == ChildProcess.Termination(status: 0, signal: nil))
        #expect(termination.succeeded)
        #expect(probe.output == ["one", "three"])
        #expect(probe.errorOutput == ["two"])
        #expect(probe.linesAtExit?.output == 2)
        #expect(probe.linesAtExit?.error == 1)
        #expect(!process.isRunning)
        #expect(process.termination == termination)
    }

    @Test func everyLineOfALargeOutputArrivesBeforeTheExit() throws {
        let process = ChildProcess("seq", arguments: ["1", "20000"])
        let probe = ProcessProbe(process)
        try process.start()
        _ = try #require(probe.waitForExit())
        #expect(probe.linesAtExit?.output == 20_000)
        #expect(probe.output.first == "1")
        #expect(probe.output.last == "20000")
    }

    @Test func theExitStatusIsReported() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "exit 3"])
        let probe = ProcessProbe(process)
        try process.start()
        let termination = try #require(probe.waitForExit())
        #expect(termination.status == 3)
        #expect(termination.signal == nil)
        #expect(!termination.succeeded)
        #expect(termination.description == "exited with status 3")
    }

    @Test func killingAChildReportsTheSignalThatEndedIt() throws {
        let process = ChildProcess("sleep", arguments: ["30"])
        let probe = ProcessProbe(process)
        try process.start()
        process.kill()
        let termination = try #require(probe.waitForExit())
        #expect(termination.signal == 15)
        #expect(termination.description == "killed by SIGTERM (signal 15)")
    }

    @Test func aMissingExecutableThrowsENOENTNamingItAndLeavesNothingOpen() {
        let before = LoopDriver.openHandleCount
        let process = ChildProcess("/no/such/tool")
        let probe = ProcessProbe(process)
        #expect {
            try process.start()
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            return error.operation == "uv_spawn" && error.kind == .notFound && error.description.contains("/no/such/tool")
        }
        #expect(!process.isRunning)
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == before)
        #expect(probe.exits.isEmpty)
    }

    @Test func theEnvironmentAndWorkingDirectoryAreHonoured() throws {
        let directory = NSTemporaryDirectory() + "compose-io-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let physical = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path

        let process = ChildProcess(
            "/bin/sh", arguments: ["-c", "echo $FOO; echo ${HOME:-unset}; pwd -P"],
            environment: ["FOO": "bar"], workingDirectory: directory
        )
        let probe = ProcessProbe(process)
        try process.start()
        _ = try #require(probe.waitForExit())
        #expect(probe.output == ["bar", "unset", physical])
    }

    @Test func theEnvironmentIsInheritedByDefault() throws {
        setenv("COMPOSE_CHILD_PROCESS_TEST", "inherited", 1)
        defer { unsetenv("COMPOSE_CHILD_PROCESS_TEST") }
        let process = ChildProcess("/bin/sh", arguments: ["-c", "echo $COMPOSE_CHILD_PROCESS_TEST"])
        let probe = ProcessProbe(process)
        try process.start()
        _ = try #require(probe.waitForExit())
        #expect(probe.output == ["inherited"])
    }

    @Test func writtenInputReachesTheChildUntilInputIsClosed() throws {
        let process = ChildProcess("cat", acceptsInput: true)
        let probe = ProcessProbe(process)
        try process.start()
        process.write("hello\n")
        process.write(Array("wor".utf8))
        process.write("ld")
        process.closeInput()

        let termination = try #require(probe.waitForExit())
        #expect(termination.succeeded)
        #expect(probe.output == ["hello", "world"])
        #expect(probe.errors.isEmpty)
    }

    @Test func writingToAChildThatClosedItsInputIsOneEPIPEAndTheInputCloses() throws {
        // The child closes its standard input, says so, and lives on.
        let process = ChildProcess("/bin/sh", arguments: ["-c", "exec 0<&-; echo closed; exec sleep 5"], acceptsInput: true)
        let probe = ProcessProbe(process)
        try process.start()
        #expect(LoopDriver.run(until: { probe.output == ["closed"] }))
        for _ in 0..<20 { process.write(String(repeating: "x", count: 4096) + "\n") }
        #expect(LoopDriver.run(until: { !probe.errors.isEmpty }))
        LoopDriver.settle()
        #expect(probe.errors.count == 1)
        #expect(probe.errors.first?.kind == .brokenPipe, "\(probe.errors)")
        #expect(process.isRunning)
        process.terminate()
        let termination = try #require(probe.waitForExit())
        #expect(termination.signal == SIGTERM)
        #expect(probe.errors.count == 1)
    }

    @Test func destroyingTheOwningComponentTerminatesTheChildAndLeavesNoZombie() throws {
        let before = LoopDriver.openHandleCount
        let tree = ComponentTree(ProcessParent())
        let worker = try #require(tree.root.value(as: ProcessParent.self)?.worker)
        #expect(!worker.isRunning)
        tree.activate()
        #expect(worker.isRunning)
        let pid = try #require(worker.pid)
        #expect(!isGone(pid))

        tree.destroy()
        #expect(LoopDriver.run(until: { worker.termination != nil }))
        #expect(worker.termination?.signal == 15)
        #expect(isGone(pid), "the child was reaped, not left a zombie")
        LoopDriver.settle()
        #expect(LoopDriver.openHandleCount == before)
        try worker.start()
        #expect(!worker.isRunning, "a closed process does not start again")
    }

    @Test func aChildIgnoringSIGTERMIsKilledAfterTheGracePeriod() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "trap '' TERM; echo ready; exec sleep 30"])
        process.terminationGracePeriod = .milliseconds(100)
        let probe = ProcessProbe(process)
        try process.start()
        #expect(LoopDriver.run(until: { probe.output == ["ready"] }))

        process.terminate()
        let termination = try #require(probe.waitForExit())
        #expect(termination.signal == 9)
    }

    @Test func aDescendantHoldingTheOutputOpenDoesNotHoldBackTheExit() throws {
        // The background `sleep` inherits the output pipe and outlives `sh`.
        let process = ChildProcess("/bin/sh", arguments: ["-c", "echo parent; sleep 2 & echo done"])
        let probe = ProcessProbe(process)
        let start = ContinuousClock.now
        try process.start()
        let termination = try #require(probe.waitForExit())
        #expect(termination.succeeded)
        #expect(probe.output == ["parent", "done"])
        #expect(ContinuousClock.now - start < .milliseconds(1_500))
    }

    @Test func aProcessCanBeStartedAgainAfterItExited() throws {
        let process = ChildProcess("/bin/sh", arguments: ["-c", "echo run"])
        let probe = ProcessProbe(process)
        try process.start()
        #expect(LoopDriver.run(until: { probe.exits.count == 1 }))
        try process.start()
        #expect(LoopDriver.run(until: { probe.exits.count == 2 }))
        #expect(probe.output == ["run", "run"])
    }

    @Test func manyShortLivedProcessesLeaveNoHandleOpen() throws {
        let before = LoopDriver.openHandleCount
        var exits = 0
        for _ in 0..<200 {
            let process = ChildProcess("true")
            process.didExit += { _ in exits += 1 }
            let expected = exits + 1
            try process.start()
            #expect(LoopDriver.run(until: { exits == expected }))
        }
        LoopDriver.settle()
        #expect(exits == 200)
        #expect(LoopDriver.openHandleCount == before)
    }
}
