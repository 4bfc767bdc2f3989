import ComposeApp
import ComposeTesting
import Testing

/// `ChildProcess` in a `TestApp` spawns nothing: the test's scripts play
/// the children, on virtual time.
@MainActor
@Suite struct TestAppProcessTests {
    @Test func aScriptAnswersByItselfAndItsOutputArrivesBeforeItsExit() throws {
        let echo = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent("echo", arguments: ["hello", "world"])) { app in
            echo.value = app.scriptProcess("echo") { run in
                run.writeOutput(run.arguments.joined(separator: " ") + "\n")
                run.writeError("no newline")
                run.exit(status: 3)
            }
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        #expect(supervisor.journal.entries == ["out: hello world", "err: no newline", "exit: exited with status 3"])
        #expect(supervisor.child.termination == ChildProcess.Termination(status: 3, signal: nil))
        #expect(supervisor.child.pid == echo.value?.runs.first?.pid)
        #expect(echo.value?.runs.count == 1)
    }

    @Test func theTestDrivesARunAndSeesWhatTheAppWroteToItsInput() throws {
        let sort = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent("/usr/bin/sort", input: "b\na\n")) { app in
            sort.value = app.scriptProcess("sort")   // answers for /usr/bin/sort too
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        let run = try #require(sort.value?.runs.last)
        #expect(run.executable == "/usr/bin/sort")
        #expect(run.inputText == "b\na\n")
        #expect(run.isInputClosed)
        #expect(run.readInputLines() == ["b", "a"])
        #expect(supervisor.child.isRunning)

        run.writeOutput("a\nb")
        #expect(supervisor.journal.entries == ["out: a"])
        run.exit(status: 0)
        #expect(supervisor.journal.entries == ["out: a", "out: b", "exit: exited with status 0"])
        #expect(!supervisor.child.isRunning)
        #expect(run.signalsReceived == [])
    }

    @Test func aScriptCanAnswerItsInputLineByLine() throws {
        let app = TestApp(root: ProcessParent("cat", input: "one\ntwo\n")) { app in
            app.scriptProcess("cat") { run in
                run.onInput = { run in
                    for line in run.readInputLines() { run.writeOutput(line.uppercased() + "\n") }
                    if run.isInputClosed { run.exit(status: 0) }
                }
            }
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        #expect(supervisor.journal.entries == ["out: ONE", "out: TWO", "exit: exited with status 0"])
    }

    @Test func gracefulShutdownEndsAChildWithSIGTERMAtOnceByDefault() throws {
        let worker = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent()) { app in worker.value = app.scriptProcess("worker") }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        app.send(.terminate)
        let run = try #require(worker.value?.runs.last)
        #expect(run.signalsReceived == [.terminate])
        #expect(run.termination == ChildProcess.Termination(status: 0, signal: ProcessSignal.Name.terminate.rawValue))
        // The shutdown destroyed the component (and its observers) first;
        // the child object still learnt how its child ended.
        #expect(supervisor.child.termination?.description == "killed by SIGTERM (signal 15)")
        #expect(!supervisor.child.isRunning)
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)
    }

    @Test func gracefulShutdownWaitsForAChildThatExitsWithinItsGracePeriod() throws {
        let worker = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent(gracePeriod: .seconds(5))) { app in
            // Takes SIGTERM as a request: the test decides when it exits.
            worker.value = app.scriptProcess("worker", signals: .ignore)
        }
        app.send(.terminate)
        let run = try #require(worker.value?.runs.last)
        #expect(run.signalsReceived == [.terminate])
        app.advance(by: .seconds(3))
        #expect(app.exitStatus == nil)
        run.writeOutput("flushed\n")
        run.exit(status: 0)
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(3))
        #expect(run.signalsReceived == [.terminate])
    }

    @Test func aChildThatIgnoresSIGTERMIsKilledAfterItsGracePeriodOnVirtualTime() throws {
        let worker = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent(gracePeriod: .seconds(2))) { app in
            worker.value = app.scriptProcess("worker", signals: .ignore)
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        app.send(.terminate)
        app.advance(by: .milliseconds(1_999))
        #expect(app.exitStatus == nil)
        app.runUntilExit()
        let run = try #require(worker.value?.runs.last)
        #expect(run.signalsReceived == [.terminate, .kill])
        #expect(supervisor.child.termination?.description == "killed by SIGKILL (signal 9)")
        #expect(app.now == .seconds(2))
        #expect(app.exitStatus == 0)
    }

    @Test func aRunningChildKeepsTheAppRunningUntilItExits() throws {
        let worker = Box<ScriptedProcess>()
        let app = TestApp(root: ProcessParent()) { app in worker.value = app.scriptProcess("worker") }
        app.runUntilExit(limit: .seconds(3600))
        #expect(!app.hasExited)
        try #require(worker.value?.runs.last).exit(status: 0)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
    }

    @Test func anExecutableNobodyScriptedIsNotFoundOnErrors() throws {
        let app = TestApp(root: ProcessParent("ghost"))
        let supervisor = try #require(app.root(as: ProcessParent.self))
        #expect(supervisor.journal.entries == ["error: notFound ghost"])
        #expect(!supervisor.child.isRunning)
        #expect(supervisor.child.pid == nil)
    }

    @Test func anExecutableNobodyScriptedIsNotFoundWhenStartedByHand() throws {
        let app = TestApp(root: Journal.Holder())
        let child = ChildProcess("/opt/ghost", workingDirectory: "/tmp")
        #expect {
            try app.run { try child.start() }
        } throws: { error in
            (error as? LoopError)?.kind == .notFound
                && (error as? LoopError)?.description == "uv_spawn failed: ENOENT (no such file or directory) for /opt/ghost in /tmp"
        }
        // A script by path answers for that path only.
        app.scriptProcess("/usr/local/bin/ghost")
        #expect(throws: LoopError.self) { try app.run { try child.start() } }
    }

    @Test func aMissingWorkingDirectoryIsNotFoundToo() throws {
        let app = TestApp(root: Journal.Holder()) { app in
            app.scriptProcess("make")
            app.files.markMissing("/src")
        }
        let child = ChildProcess("make", workingDirectory: "/src/app")
        #expect {
            try app.run { try child.start() }
        } throws: { error in
            (error as? LoopError)?.kind == .notFound
        }
    }

    @Test func aChildCanBeStartedAgainAfterItsExitAndSignalledByHand() throws {
        let app = TestApp(root: ProcessParent("job")) { app in
            app.scriptProcess("job")
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        let job = app.scriptProcess("job", signals: .handle { run, signal in
            run.writeOutput("got \(signal)\n")
        })
        // The first run began under the first script; the replacement
        // answers the next start.
        app.run { supervisor.child.kill(.hangup) }
        #expect(supervisor.journal.entries == ["exit: killed by SIGHUP (signal 1)"])
        try app.run { try supervisor.child.start() }
        app.run { supervisor.child.kill(.user1) }
        let run = try #require(job.runs.last)
        #expect(run.signalsReceived == [.user1])
        #expect(supervisor.journal.entries.last == "out: got SIGUSR1")
        #expect(run.isRunning)
        #expect(supervisor.child.pid == run.pid)
    }

    @Test func setUpScriptsWhatAStartupComponentNeedsTheMomentItAppears() throws {
        let app = TestApp(Tailer.self) { app in
            app.scriptProcess("tail") { run in
                #expect(run.arguments == ["-f", "/var/log/app.log"])
                run.writeOutput("line 1\nline 2\n")
            }
        }
        let tailer = try #require(app.root(as: Tailer.self))
        #expect(tailer.journal.entries == ["line 1", "line 2"])
    }
}

/// Carries a value out of a `setUp` closure.
@MainActor
final class Box<Value> {
    var value: Value?
}

extension Journal {
    /// An app with nothing in it.
    struct Holder: Component {
        var observers: Void { None }
    }
}
