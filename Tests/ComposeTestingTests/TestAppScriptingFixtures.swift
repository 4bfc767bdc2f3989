import ComposeApp

// Apps that meet the outside world a test scripts: standard input, file
// watches, child processes, outgoing connections.

/// Reads commands from standard input; ends the app at end of input.
struct Shell: Component {
    let input = StandardInput()
    let journal = Journal()
    var observers: Void {
        input += { line in journal.entries.append(line) }
        input.didReachEnd += {
            journal.entries.append("<end>")
            Application.shutdown(status: 0)
        }
        input.errors += { journal.entries.append("error: \($0.kind)") }
    }
}

/// Watches a directory and a file in it, and a path that may be missing.
struct ConfigWatcher: Component {
    let directory = FileWatcher(path: "/etc/app/")
    let file = FileWatcher(path: "/etc/app/app.conf")
    let extra = FileWatcher(path: "/etc/app/extra/more.conf")
    let journal = Journal()
    var observers: Void {
        directory += { journal.entries.append("dir: \($0)") }
        file += { journal.entries.append("file: \($0)") }
        extra += { journal.entries.append("extra: \($0)") }
        directory.errors += { journal.entries.append("dir error: \($0.kind)") }
        file.errors += { journal.entries.append("file error: \($0.kind)") }
        extra.errors += { journal.entries.append("extra error: \($0)") }
    }
}

/// Runs `executable` when it appears, writes to its input, and says what
/// the child did.
struct ProcessParent: Component {
    let child: ChildProcess
    let journal = Journal()

    init(_ executable: String = "worker", arguments: [String] = [], input: String? = nil, gracePeriod: Duration = .seconds(2)) {
        child = ChildProcess(executable, arguments: arguments, acceptsInput: input != nil, startsWithComponent: true)
        child.terminationGracePeriod = gracePeriod
        self.input = input
    }

    private let input: String?

    var observers: Void {
        didAppear += {
            guard let input, child.isRunning else { return }
            child.write(input)
            child.closeInput()
        }
        child.output += { journal.entries.append("out: \($0)") }
        child.errorOutput += { journal.entries.append("err: \($0)") }
        child.didExit += { journal.entries.append("exit: \($0)") }
        child.errors += { journal.entries.append("error: \($0.kind) \($0.context ?? "")") }
    }
}

/// Connects to a server at 127.0.0.1:6379 when it appears; says PING.
struct RedisClient: Component {
    let port: UInt16
    let links = InstanceComponent<RedisLink>()
    let journal = Journal()

    init(port: UInt16 = 6379) {
        self.port = port
    }

    var observers: Void {
        didAppear += {
            TCPConnection.connect(host: "127.0.0.1", port: port) { result in
                switch result {
                case .success(let connection):
                    journal.entries.append("connected to \(connection.remoteAddress)")
                    links.add { RedisLink(connection: connection) }
                case .failure(let error):
                    journal.entries.append("failed: \(error.kind) \(error)")
                }
            }
        }
        links.forward(\.connection.lines) += { _, line in journal.entries.append("got: \(line)") }
        links.forward(\.connection.errors) += { _, error in journal.entries.append("error: \(error.kind)") }
        links.forward(\.connection.didClose) += { id, reason in
            journal.entries.append("closed: \(reason)")
            links.remove(id)
        }
    }
}

struct RedisLink: Component {
    let connection: TCPConnection
    var observers: Void {
        didAppear += { connection.write("PING\r\n") }
    }
}

/// A server whose listen failures are written down.
struct Listener: Component {
    let server: TCPServer
    let journal = Journal()

    init(port: UInt16, startsWithComponent: Bool = true) {
        server = TCPServer(port: port, startsWithComponent: startsWithComponent)
    }

    var observers: Void {
        server.errors += { journal.entries.append("\($0.kind): \($0)") }
    }
}

/// A `StartupComponent` that needs a scripted executable the moment it
/// appears.
struct Tailer: Component {
    let tail = ChildProcess("/usr/bin/tail", arguments: ["-f", "/var/log/app.log"], startsWithComponent: true)
    let journal = Journal()
    var observers: Void {
        tail.output += { journal.entries.append($0) }
        tail.errors += { journal.entries.append("error: \($0.kind)") }
    }
}

extension Tailer: StartupComponent {}

/// Only reads standard input, and does nothing with it.
struct Reader: Component {
    let input = StandardInput()
    var observers: Void { None }
}

/// Only watches a directory.
struct Watching: Component {
    let watcher = FileWatcher(path: "/srv")
    var observers: Void { None }
}
