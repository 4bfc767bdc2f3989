import ComposeApp

/// `process`: runs `/bin/sh -c 'echo out; echo err >&2; exit 3'` 50 times,
/// one after the other (a new ChildProcess each time), checking its output
/// and status; meanwhile a `sleep 30` the component owns keeps running.
/// After "process done" the app shuts down, and the graceful shutdown must
/// terminate the sleeper (its pid is printed first, "sleeper PID", so a test
/// can check that it is gone). Valgrind runs it: `make check-leaks`.
struct ProcessScenario: Component {
    let sleeper = ChildProcess("sleep", arguments: ["30"], startsWithComponent: true)

    var observers: Void {
        didAppear += {
            say("sleeper \(sleeper.pid ?? 0)")
            ProcessRun.current = ProcessRun()
            ProcessRun.current?.runNext()
        }
    }
}

/// The short-lived children of the process scenario.
@MainActor
final class ProcessRun {
    static var current: ProcessRun?

    static let runs = 50
    private var finished = 0

    func runNext() {
        let child = ChildProcess("/bin/sh", arguments: ["-c", "echo out; echo err >&2; exit 3"])
        var output: [String] = []
        var errorOutput: [String] = []
        child.output += { output.append($0) }
        child.errorOutput += { errorOutput.append($0) }
        child.didExit += { [weak self] termination in
            guard output == ["out"], errorOutput == ["err"], termination == ChildProcess.Termination(status: 3, signal: nil) else {
                say("run failed: output \(output), error output \(errorOutput), \(termination)")
                Application.shutdown(status: 1)
                return
            }
            self?.finishedOne()
        }
        do {
            try child.start()
        } catch {
            say("start failed: \(error)")
            Application.shutdown(status: 1)
        }
    }

    private func finishedOne() {
        finished += 1
        if finished < Self.runs {
            runNext()
        } else {
            say("process done")
            Application.shutdown()
        }
    }
}
