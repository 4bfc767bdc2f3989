import ComposeApp

/// A running command, started when the component appears and terminated
/// (its whole process group) when the component is destroyed: when its
/// client leaves, when the client says `stop`, or at shutdown.
///
/// The session that holds it relays the command's output to its client
/// (``RelaySession``): the connection belongs to the session, and a
/// component may observe only its own and its descendants' emitters.
struct CommandComponent: Component {
    let process: ChildProcess
    /// How the command ended ("exited with status 0", "killed by SIGTERM
    /// (signal 15)"), or why it could not start.
    let finished = Emitter<String>()

    init(commandLine: [String]) {
        process = ChildProcess(commandLine[0], arguments: Array(commandLine.dropFirst()), startsWithComponent: true)
    }
}

extension CommandComponent {
    var observers: Void {
        process.didExit += { termination in
            finished.send(termination.description)
        }

        process.errors += { error in
            if !process.isRunning { finished.send("failed: \(error)") }
        }
    }
}
