// The Compose contender of the echo benchmark: a daemon written as the
// README teaches. A TCPServer hands each connection to an
// InstanceComponent of EchoSession components; a session writes back what
// it receives and, when a write reports .full, pauses reading until the
// connection has drained. Closed connections' sessions are removed.
//
// Usage: EchoCompose [PORT]  (0 or none: any free port). Listens on
// 127.0.0.1, prints "listening PORT" when the root appears, and runs until
// SIGTERM (graceful shutdown).

import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// One connection: echoes it, with back-pressure.
struct EchoSession: Component {
    let connection: TCPConnection

    var observers: Void {
        connection += { bytes in
            if connection.write(bytes) == .full {
                connection.pauseReading()
            }
        }
        connection.didBecomeWritable += {
            connection.resumeReading()
        }
    }
}

@main
struct EchoServer: StartupComponent {
    static let port = CommandLine.arguments.count > 1 ? UInt16(CommandLine.arguments[1]) ?? 0 : 0

    let listener = TCPServer(host: "127.0.0.1", port: EchoServer.port)
    let sessions = InstanceComponent<EchoSession>()

    init() {}

    /// PORT is the first argument (read above): declared, since a
    /// positional argument nobody declares is a usage error.
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(positionalKeys: ["port"]))
    }

    var observers: Void {
        listener += { connection in
            sessions.add { EchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
        listener.errors += { error in
            say("EchoCompose: \(error)", to: 2)
            Application.shutdown(status: 1)
        }
        didAppear += {
            say("listening \(listener.port)")
        }
    }
}

/// Writes `text` and a newline to file descriptor `fd` at once (the runner
/// reads stdout through a pipe, which stdio would buffer).
func say(_ text: String, to fd: Int32 = 1) {
    var line = text + "\n"
    line.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
}
