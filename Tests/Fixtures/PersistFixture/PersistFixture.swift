// The persistence fixture ComposeAppTests starts as a real process. The
// mode is the first argument; the state directory is PERSIST_DIR. Every
// event is one line on stdout.
//
//   crash     restores "counter" (prints "restored N", or "restored none"),
//             then makes numbered changes N+1, N+2, ... up to PERSIST_COUNT,
//             PERSIST_BATCH per 1 ms tick, saved with a 2 ms debounce and a
//             10 ms maximum wait; prints "saved N" after each completed save
//             and "done N" after the last change, then shuts down. The test
//             kills it with SIGKILL at random moments and restarts it.
//   seed      saves a small state "A" and exits.
//   diskfull  on a small file system: saves "A", then a state too big for
//             it (the save fails), then "B"; prints what it observes.
//   readonly  on a read-only file system holding "A": restores it, a save
//             fails; prints what it observes.
//   plain     a @Store(persistedAs: "visits") in an app whose configuration
//             names no back end: prints "restored N", counts one visit,
//             shuts down (which saves it).
import ComposeApp
import ComposePersistence
#if canImport(Glibc)
import Glibc
#endif

/// Prints one event line and flushes it.
@MainActor
func say(_ line: String) {
    print(line)
    fflush(nil)
}

func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

let mode = CommandLine.arguments.dropFirst().first ?? "crash"

@main
struct PersistFixture: StartupComponent {
    let crash = CrashScenario()
    let plain = PlainScenario()

    init() {}

    var observers: Void {
        Application.context?.diagnostics += { diagnostic in
            say("diagnostic \(diagnostic.code) \(diagnostic.message)")
        }
    }

    func didBindRootComponent() {
        guard mode != "crash", mode != "plain" else { return }
        FileSystemScenarios.run(mode)
    }

    static var configuration: StartupConfiguration {
        StartupConfiguration(
            // `plain` shows what importing ComposePersistence alone does.
            statePersistence: mode == "plain" ? nil : .json(debounce: .milliseconds(2), maximumWait: .milliseconds(10)),
            stateDirectory: environment("PERSIST_DIR"),
            // The mode, the first argument: a positional argument must be
            // declared, or the app exits 64 with a usage line.
            config: ConfigOptions(positionalKeys: ["mode"])
        )
    }
}

/// The coordinator the runtime installed.
@MainActor
var persistence: StatePersistence<FileStateStorage> {
    // The configuration above always asks for one.
    Application.context!.statePersistence as! StatePersistence<FileStateStorage>
}
