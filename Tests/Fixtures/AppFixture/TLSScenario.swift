import ComposeTLS

/// `tls`: a TLS echo server on port 0 and in-process TLS clients; the
/// certificates are files in COMPOSE_TLS_DIR (`ca.pem`, `server.pem`,
/// `server.key`), made by whoever starts it (`make check-leaks`'s script,
/// TLSOperationTests).
///
/// 1. 12 clients, four at a time, each sends a line (every third one 300
///    KB more, several records and write pieces), reads the echo, and ends
///    with `close()` (its close_notify; the server's session then closes,
///    sending its own) or `abort()` (no close_notify).
/// 2. Three handshakes that fail: a client that trusts only the system's
///    authorities (it refuses the certificate, the server hears its
///    alert), one that sends plain text, one that sends nothing (closed at
///    the handshake timeout, 2 s).
/// 3. Three clients connect and stay; "tls ready". Then each configuration
///    reload (SIGHUP) reloads the server's certificate, and a new client
///    connects and prints the subject it was given (`subject: /CN=...`)
///    before it closes; a reload that fails prints "reload failed" (its
///    diagnostic). The shutdown (SIGTERM) closes the clients that stay.
struct TLSScenario: Component {
    /// Made when the scenario is opened, and released with the tree at
    /// the shutdown: the listener keeps the last connection it accepted
    /// (its emitter's last value), which must not outlive the app.
    let server = DynamicComponent<TLSServerPart>()

    var observers: Void {
        Application.configurationDidReload += { TLSRun.current?.connectAfterReload() }
        if let diagnostics = Application.context?.diagnostics {
            diagnostics += { diagnostic in
                if diagnostic.code == .tlsReloadFailed { say("reload failed") }
            }
        }
        didAppear += { server.create { TLSServerPart() } }
        if let shutdown = Application.context?.shutdown {
            // After the drain (its TLS connections closed with their
            // close_notify): the listener goes, with the last connection.
            shutdown.didChangePhase += { phase in
                if phase == .closing { server.destroy() }
            }
        }
    }
}

/// The tls scenario's server: echoes what each connection sends.
struct TLSServerPart: Component {
    let listener: TCPServer
    let sessions = InstanceComponent<EchoSession>()
    let directory: String

    init() {
        directory = environment("COMPOSE_TLS_DIR") ?? "/nonexistent"
        var configuration = TLSConfiguration.server(certificateChain: directory + "/server.pem", privateKey: directory + "/server.key")
        configuration.handshakeTimeout = .seconds(2)
        listener = TCPServer(port: 0, tls: configuration)
    }

    var observers: Void {
        listener += { connection in
            sessions.add { EchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
        listener.errors += { error in
            say("listen failed: \(error)")
            Application.shutdown(status: 1)
        }
        didAppear += {
            guard listener.isListening else { return }
            TLSRun.begin(port: listener.port, authority: directory + "/ca.pem")
        }
    }
}

/// The clients of the tls scenario.
@MainActor
final class TLSRun {
    static var current: TLSRun?

    static let total = 12
    static let concurrent = 4
    static let kept = 3
    static let largePayload = [UInt8](repeating: 0x61, count: 300_000)

    let port: UInt16
    let trust: TLSConfiguration
    private var clients: [ObjectIdentifier: TCPConnection] = [:]
    private var started = 0
    private var closed = 0
    private var failuresLeft = 3
    private var keptEchoed = 0

    init(port: UInt16, authority: String) {
        self.port = port
        trust = .client(trustRoots: .file(authority))
    }

    static func begin(port: UInt16, authority: String) {
        let run = TLSRun(port: port, authority: authority)
        current = run
        for _ in 0..<concurrent { run.startNext() }
    }

    private func startNext() {
        guard started < Self.total else { return }
        let index = started
        started += 1
        connect(index: index) { [weak self] connection in self?.talk(connection, index: index) }
    }

    private func connect(index: Int, tls: TLSConfiguration? = nil, _ body: @escaping @MainActor (TCPConnection) -> Void) {
        TCPConnection.connect(host: "localhost", port: port, tls: tls ?? trust) { result in
            switch result {
            case .success(let connection):
                body(connection)
            case .failure(let error):
                say("connect failed: \(error)")
                Application.shutdown(status: 1)
            }
        }
    }

    /// Sends a line (and a large payload), waits for its echo, then ends.
    private func talk(_ connection: TCPConnection, index: Int) {
        clients[ObjectIdentifier(connection)] = connection
        var payload = Array("tls client \(index)\n".utf8)
        if index % 3 == 2 { payload += Self.largePayload }
        let expected = payload.count
        var echoed = 0
        connection += { [weak connection] bytes in
            guard let connection else { return }
            echoed += bytes.count
            guard echoed == expected else { return }
            if index % 4 == 3 { connection.abort() } else { connection.close() }
        }
        connection.didClose += { [weak self, weak connection] _ in
            guard let self, let connection else { return }
            clients[ObjectIdentifier(connection)] = nil
            closed += 1
            if closed == Self.total { failHandshakes() } else { startNext() }
        }
        connection.start()
        connection.write(payload)
    }

    /// Three handshakes that fail, in parallel.
    private func failHandshakes() {
        TCPConnection.connect(host: "localhost", port: port, tls: .client()) { [weak self] result in
            if case .failure(let error) = result, error.kind == .tlsVerificationFailed {
                self?.handshakeFailed()
            } else {
                say("the system trusted the test authority")
                Application.shutdown(status: 1)
            }
        }
        for text in ["GET / HTTP/1.0\r\n\r\n", nil] {
            TCPConnection.connect(host: "127.0.0.1", port: port) { [weak self] result in
                guard let self, let connection = try? result.get() else {
                    say("connect failed")
                    Application.shutdown(status: 1)
                    return
                }
                clients[ObjectIdentifier(connection)] = connection
                connection.didClose += { [weak self, weak connection] _ in
                    guard let self, let connection else { return }
                    clients[ObjectIdentifier(connection)] = nil
                    handshakeFailed()
                }
                connection.start()
                if let text { connection.write(text) }
            }
        }
    }

    private func handshakeFailed() {
        failuresLeft -= 1
        guard failuresLeft == 0 else { return }
        say("handshakes failed")
        for index in 0..<Self.kept {
            connect(index: Self.total + index) { [weak self] connection in self?.keep(connection) }
        }
    }

    private func keep(_ connection: TCPConnection) {
        clients[ObjectIdentifier(connection)] = connection
        // The shutdown's drain closes the server's end (close_notify).
        connection.didClose += { [weak self, weak connection] _ in
            guard let connection else { return }
            self?.clients[ObjectIdentifier(connection)] = nil
        }
        connection.lines += { [weak self] _ in
            guard let self else { return }
            keptEchoed += 1
            if keptEchoed == Self.kept { say("tls ready") }
        }
        connection.start()
        connection.writeLine("staying")
    }

    /// After a configuration reload: a new client, and the certificate it
    /// was given.
    func connectAfterReload() {
        connect(index: -1) { [weak self] connection in
            guard let self else { return }
            clients[ObjectIdentifier(connection)] = connection
            say("subject: \(connection.tlsSession?.peerCertificateSubject ?? "none")")
            connection.didClose += { [weak self, weak connection] _ in
                guard let connection else { return }
                self?.clients[ObjectIdentifier(connection)] = nil
            }
            connection.start()
            connection.close()
        }
    }
}
