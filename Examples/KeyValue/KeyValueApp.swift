// A key-value server speaking redis's protocol (RESP2), built on the
// framing API: `redis-cli -p 6380` and `redis-benchmark -p 6380` talk to it.
//
//   swift run -c release ComposeKeyValue --port 6380
//
//   KeyValueApp
//   ├── listener: TCPServer
//   └── sessions: InstanceComponent         one per connection
//       └── 1, 2, ...: KeyValueSession      RESPDecoder frames in, replies out
import ComposeFraming

@main
struct KeyValueApp: Component {
    let settings: KeyValueSettings
    let listener: TCPServer
    let store = KeyValueStore()
    let sessions = InstanceComponent<KeyValueSession>()

    init() { self.init(settings: KeyValueSettings(config: Application.config)) }

    init(settings: KeyValueSettings) {
        self.settings = settings
        listener = TCPServer(host: settings.host, port: settings.port)
    }
}

extension KeyValueApp: StartupComponent {
    static var configuration: StartupConfiguration { StartupConfiguration(config: KeyValueSettings.options) }

    var observers: Void {
        listener += { connection in
            sessions.add { KeyValueSession(connection: connection, store: store, maximumBulkLength: settings.maximumBulkLength) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
        listener.errors += { error in
            guard !listener.isListening else { return }
            Application.print("cannot listen: \(error)")
            Application.shutdown(status: 1)
        }
        didAppear += {
            if listener.isListening { Application.print("listening on \(settings.host):\(listener.port)") }
        }
    }
}

/// One client: each request's reply is encoded straight into the write
/// buffer. A client that pipelines without reading is paced by its own send
/// queue (`frames(using:)`'s back-pressure).
struct KeyValueSession: Component {
    let connection: TCPConnection
    let store: KeyValueStore
    let maximumBulkLength: Int

    var observers: Void {
        connection.frames(using: RESPDecoder(maximumBulkLength: maximumBulkLength)) += { request in
            switch request {
            case .command(let arguments) where !arguments.isEmpty:
                var quits = false
                connection.write { quits = store.execute(arguments, into: &$0) }
                if quits { connection.close() }
            case .command: break
            case .malformed(let message):
                connection.write { $0.writeError(ByteBuffer(string: "Protocol error: " + message)) }
                connection.close()
            }
        }
    }
}

/// Where the server listens, from the flag, the environment variable
/// (`KEYVALUE_PORT`, ...) or the default; `--help` lists them.
struct KeyValueSettings: Sendable {
    var host = "127.0.0.1"
    /// 6380: next to redis's 6379, so both can run side by side.
    var port: UInt16 = 6380
    var maximumBulkLength = 64 << 20

    static let options = ConfigOptions(environmentPrefix: "KEYVALUE", descriptions: [
        "host": "The address to listen on.",
        "port": "The TCP port to listen on; 0 picks a free one.",
        "maxBulk": "The longest value (bulk string) a client may send, in bytes; a longer one closes that connection.",
    ])

    init(config: ConfigReader) {
        host = config.string(forKey: "host", default: host)
        if let port = UInt16(exactly: config.int(forKey: "port", default: Int(port))) { self.port = port }
        maximumBulkLength = max(1, config.int(forKey: "maxBulk", default: maximumBulkLength))
    }
}
