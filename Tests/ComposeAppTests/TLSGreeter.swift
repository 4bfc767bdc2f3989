import ComposeTLS

/// A TLS server that greets each connection, then answers each line with
/// the ALPN protocol the handshake chose and the line; "bye" closes. The
/// same code runs under `TestApp` (TestAppTLSTests) and on a real socket
/// (TLSGreeterLiveTests).
struct TLSGreeter: Component {
    let listener: TCPServer
    let sessions = InstanceComponent<TLSGreeterSession>()
    let log: TLSGreeterLog

    init(port: UInt16, tls: TLSConfiguration, log: TLSGreeterLog) {
        listener = TCPServer(port: port, tls: tls)
        self.log = log
    }

    var observers: Void {
        listener += { connection in sessions.add { TLSGreeterSession(connection: connection, log: log) } }
        listener.errors += { error in log.errors.append(error) }
        sessions.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

struct TLSGreeterSession: Component {
    let connection: TCPConnection
    let log: TLSGreeterLog

    var observers: Void {
        log.connections.append(connection)
        // Written before the handshake completes: it waits for it.
        connection.writeLine("welcome")
        connection.lines += { line in
            connection.writeLine("\(connection.tlsSession?.applicationProtocol ?? "-") \(line)")
            if line == "bye" { connection.close() }
        }
    }
}

@MainActor
final class TLSGreeterLog {
    var connections: [TCPConnection] = []
    var errors: [LoopError] = []
}

/// A component that connects over TLS when it appears and records the
/// outcome: the session, or the error.
struct TLSFetcher: Component {
    let host: String
    let port: UInt16
    let tls: TLSConfiguration
    let log: TLSFetcherLog
    let links = InstanceComponent<TLSFetcherLink>()

    var observers: Void {
        didAppear += {
            TCPConnection.connect(host: host, port: port, tls: tls) { result in
                switch result {
                case .success(let connection):
                    log.session = connection.tlsSession
                    links.add { TLSFetcherLink(connection: connection) }
                case .failure(let error):
                    log.failure = error
                }
            }
        }
        links.forward(\.connection.lines) += { _, line in log.lines.append(line) }
    }
}

struct TLSFetcherLink: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.writeLine("GET /")
    }
}

@MainActor
final class TLSFetcherLog {
    var session: TLSSession?
    var failure: LoopError?
    var lines: [String] = []
}
