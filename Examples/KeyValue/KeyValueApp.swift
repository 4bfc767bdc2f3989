// A key-value server speaking redis's protocol (RESP2) on the framing API: `swift run -c release
// ComposeKeyValue`, then `redis-cli -p 6380`. The tree: the app, its listener, one session a client.
import ComposeFraming

@main
struct KeyValueApp: Component, StartupComponent {
    static let options = ConfigOptions(environmentPrefix: "KEYVALUE", descriptions: [
        "host": "The address to listen on.",
        "port": "The TCP port to listen on (6380: beside redis's 6379); 0 picks a free one.",
        "maxBulk": "The longest value a client may send, in bytes (64 MiB); a longer one closes that connection.",
    ])
    // Polls 50 µs after each read before sleeping: a busy server is awake when the next request comes.
    static var configuration: StartupConfiguration { StartupConfiguration(config: options, busyPolling: .microseconds(50)) }
    let listener: TCPServer
    let maximumBulkLength: Int
    let store = KeyValueStore()
    let sessions = InstanceComponent<KeyValueSession>()

    /// Each setting from its flag (`--port 6380`), variable (`KEYVALUE_PORT`) or default.
    init() {
        let config = Application.config
        let port = UInt16(exactly: config.int(forKey: "port", default: 6380)) ?? 6380
        listener = TCPServer(host: config.string(forKey: "host", default: "127.0.0.1"), port: port)
        maximumBulkLength = max(1, config.int(forKey: "maxBulk", default: 64 << 20))
    }

    var observers: Void {
        listener += { connection in
            sessions.add { KeyValueSession(connection: connection, store: store, maximumBulkLength: maximumBulkLength) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
        listener.errors += { error in
            if !listener.isListening { Application.print("cannot listen: \(error)"); Application.shutdown(status: 1) }
        }
        didAppear += { if listener.isListening { Application.print("listening on \(listener.host):\(listener.port)") } }
    }
}

/// One client. Replies are encoded straight into the outgoing buffer; a
/// client that pipelines without reading is paced by its own send queue.
struct KeyValueSession: Component {
    let connection: TCPConnection
    let store: KeyValueStore
    let maximumBulkLength: Int

    var observers: Void {
        connection.frames(using: RESPDecoder(maximumBulkLength: maximumBulkLength)) += { request in
            var quits = false
            if request.key == nil && request.arguments.isEmpty { return }
            connection.write { quits = store.execute(request, into: &$0) }
            if quits { connection.close() }
        }
        // A protocol error is answered as redis answers it; then the connection closes.
        connection.errors += { error in
            guard case .malformedFrame(let reason)? = error.framingError else { return }
            connection.write { $0.writeError("Protocol error: " + reason) }
        }
    }
}
