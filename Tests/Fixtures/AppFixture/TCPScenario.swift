import ComposeApp

/// `tcp`: a TCPServer on port 0 echoing to in-process TCPConnection clients.
/// 200 clients connect, ten at a time; each sends a few bytes (eight of
/// them 6 MB, more than the sockets take at once, so writes are queued),
/// and once they are echoed ends the connection in one of four ways: close,
/// half-close (the server then closes), abort, or abort before the echo
/// came back (with writes still queued, for the large ones). The server
/// removes a connection's component when the connection closes.
/// When every client and every server-side connection has closed, three
/// more clients connect and stay connected: the shutdown that follows "tcp
/// done" must close them (valgrind runs it: `make check-leaks`).
struct TCPScenario: Component {
    let listener = TCPServer(port: 0)
    let sessions = InstanceComponent<EchoSession>()

    var observers: Void {
        listener += { connection in
            sessions.add { EchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
            TCPRun.current?.check()
        }
        listener.errors += { error in
            say("listen failed: \(error)")
            Application.shutdown(status: 1)
        }
        didAppear += {
            let sessions = sessions
            TCPRun.begin(port: listener.port) { sessions.count }
        }
    }
}

/// One server-side connection: echoes what it receives.
struct EchoSession: Component {
    let connection: TCPConnection

    var observers: Void {
        connection += { bytes in
            connection.write(bytes)
        }
    }
}

/// The clients of the tcp scenario.
@MainActor
final class TCPRun {
    /// How a client ends its connection.
    enum Ending: CaseIterable {
        case close, halfClose, abort, abortBeforeEcho
    }

    static var current: TCPRun?

    static let total = 200
    static let concurrent = 10
    static let kept = 3
    /// Made once (a debug build is slow to fill it).
    static let largePayload = [UInt8](repeating: 0x5a, count: 6 << 20)

    let port: UInt16
    /// How many connections the server has open.
    let serverConnections: () -> Int
    /// Client connections, until they close.
    private var clients: [ObjectIdentifier: TCPConnection] = [:]
    private var started = 0
    private var closed = 0
    private var keptEchoed = 0
    private var isKeeping = false

    init(port: UInt16, serverConnections: @escaping () -> Int) {
        self.port = port
        self.serverConnections = serverConnections
    }

    static func begin(port: UInt16, serverConnections: @escaping () -> Int) {
        let run = TCPRun(port: port, serverConnections: serverConnections)
        current = run
        for _ in 0..<concurrent { run.startNext() }
    }

    private func startNext() {
        guard started < Self.total else { return }
        let index = started
        started += 1
        connect(index: index, ending: Ending.allCases[index % Ending.allCases.count])
    }

    private func connect(index: Int, ending: Ending?) {
        TCPConnection.connect(host: "127.0.0.1", port: port) { [weak self] result in
            switch result {
            case .success(let connection):
                self?.connected(connection, index: index, ending: ending)
            case .failure(let error):
                say("connect failed: \(error)")
                Application.shutdown(status: 1)
            }
        }
    }

    /// Sends the client's bytes; `ending` says what to do once they are
    /// echoed (`nil`: stay connected).
    private func connected(_ connection: TCPConnection, index: Int, ending: Ending?) {
        clients[ObjectIdentifier(connection)] = connection
        // Both ends of an echo pausing on a full queue would wait for each
        // other: the clients always read.
        connection.pausesReadingWhenFull = false
        var payload = Array("client \(index) says hello\n".utf8)
        if index % 5 == 4, index < 40 {
            payload += Self.largePayload
        }
        let expected = payload.count
        var echoed = 0
        connection += { [weak self, weak connection] bytes in
            guard let self, let connection else { return }
            echoed += bytes.count
            guard echoed == expected else { return }
            switch ending {
            case .close: connection.close()
            case .halfClose: connection.shutdownWrite()
            case .abort: connection.abort()
            case .abortBeforeEcho: break
            case nil: self.keptConnected()
            }
        }
        connection.didClose += { [weak self, weak connection] _ in
            guard let self, let connection else { return }
            self.clientClosed(connection, kept: ending == nil)
        }
        connection.start()
        connection.write(payload)
        if ending == .abortBeforeEcho {
            connection.abort()
        }
    }

    private func clientClosed(_ connection: TCPConnection, kept: Bool) {
        clients[ObjectIdentifier(connection)] = nil
        guard !kept else { return }
        closed += 1
        startNext()
        check()
    }

    /// Once every client and server-side connection closed, connects the
    /// clients that stay.
    func check() {
        guard !isKeeping, closed == Self.total, clients.isEmpty, serverConnections() == 0 else { return }
        isKeeping = true
        for index in 0..<Self.kept {
            connect(index: Self.total + index, ending: nil)
        }
    }

    private func keptConnected() {
        keptEchoed += 1
        guard keptEchoed == Self.kept else { return }
        say("tcp done")
        Application.shutdown()
    }
}
