// The Compose contender of the TLS echo benchmark (make bench-tls):
// EchoCompose's daemon with `tls:` on its listener, nothing else changed.
// A TCPServer hands each connection to an InstanceComponent of
// EchoSession components; a session writes back what it receives and,
// when a write reports .full, pauses reading until the connection has
// drained. Closed connections' sessions are removed.
//
// Usage: EchoTLSCompose PORT CERT KEY  (PORT 0: any free one). Listens
// on 127.0.0.1, prints "listening PORT" when the root appears, and runs
// until SIGTERM (graceful shutdown).

import ComposeTLS
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
    static let arguments = CommandLine.arguments
    static let port = arguments.count > 1 ? UInt16(arguments[1]) ?? 0 : 0
    static let certificate = arguments.count > 2 ? arguments[2] : "cert.pem"
    static let key = arguments.count > 3 ? arguments[3] : "key.pem"

    let listener = TCPServer(host: "127.0.0.1", port: EchoServer.port, tls: .server(
        certificateChain: EchoServer.certificate,
        privateKey: EchoServer.key
    ))
    let sessions = InstanceComponent<EchoSession>()

    init() {}

    /// PORT, CERT and KEY are the arguments (read above): declared, since
    /// a positional argument nobody declares is a usage error.
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(positionalKeys: ["port", "certificate", "key"]))
    }

    var observers: Void {
        listener += { connection in
            sessions.add { EchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
        listener.errors += { error in
            guard !listener.isListening else { return }
            say("EchoTLSCompose: \(error)", to: 2)
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
