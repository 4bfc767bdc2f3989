import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Testing a whole app", "Scripting the outside world".

struct Updater: Component {
    let pull = ChildProcess("git", arguments: ["pull"], startsWithComponent: true)
    var observers: Void {
        pull.didExit += { termination in
            Application.shutdown(status: termination.succeeded ? 0 : 1)
        }
    }
}

@MainActor
@Test func aFailedPullEndsTheUpdaterWithStatus1() {
    let app = TestApp(root: Updater()) { app in   // before the root binds
        app.scriptProcess("git") { run in          // no real git runs
            #expect(run.arguments == ["pull"])
            run.writeError("fatal: not a git repository\n")
            run.exit(status: 128)
        }
    }
    #expect(app.exitStatus == 1)
}

