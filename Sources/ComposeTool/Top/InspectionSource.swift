import ComposeApp

/// Where `compose top` gets its replies: the app's inspection socket in
/// the tool (``SocketInspectionSource``), canned replies in tests.
/// Everything is called and answered on the loop.
@MainActor
protocol InspectionSource: AnyObject {
    /// Sends `request` (one request line); `reply` gets the one reply
    /// line, or why there is none. Replies come in the order asked.
    func ask(_ request: String, reply: @escaping @MainActor (Result<String, TopFailure>) -> Void)
    /// Follows `path` (replacing a follow under way): `line` gets each
    /// line of the stream, the acknowledgement first, or why it ended.
    func follow(_ path: String, line: @escaping @MainActor (Result<String, TopFailure>) -> Void)
    /// Closes what is open; asking again opens it again.
    func close()
}

/// The requests top sends (docs/inspection-protocol.md).
enum TopRequest {
    static let info = #"{"v":1,"command":"info"}"#
    static let tree = #"{"v":1,"command":"tree"}"#
    static let loop = #"{"v":1,"command":"loop"}"#

    /// `follow` of `path`, with the path as a JSON string.
    static func follow(_ path: String) -> String {
        var escaped = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case _ where scalar.value < 0x20: escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return #"{"v":1,"command":"follow","path":""# + escaped + #""}"#
    }
}

/// An app's inspection socket, through ComposeApp's Unix socket client
/// on the loop (`TCPConnection.connect(unixPath:)`): one connection for
/// requests and their replies, another for a follow. Nothing blocks the
/// loop; a connection that closes (the app exited) fails what waits on it,
/// and the next request connects again.
@MainActor
final class SocketInspectionSource: InspectionSource, ServiceLifecycle {
    /// The longest reply line taken: the tree of a large app is long, but
    /// not without bound.
    static let maximumReplyLength = LineLengthLimit.bytes(32 << 20)

    let path: String
    private var connection: TCPConnection?
    private var isConnecting = false
    /// Requests asked before the connection was made.
    private var unsent: [String] = []
    /// Whoever waits for a reply, in the order asked.
    private var waiting: [@MainActor (Result<String, TopFailure>) -> Void] = []
    private var follower: TCPConnection?
    /// Counts follows, so that lines of a replaced one are ignored.
    private var followGeneration = 0

    init(path: String) {
        self.path = path
    }

    func start() async throws {}

    func stop() async {
        close()
    }

    func ask(_ request: String, reply: @escaping @MainActor (Result<String, TopFailure>) -> Void) {
        waiting.append(reply)
        if let connection {
            _ = connection.writeLine(request)
            return
        }
        unsent.append(request)
        guard !isConnecting else { return }
        isConnecting = true
        TCPConnection.connect(unixPath: path) { [weak self] result in
            guard let self else { return }
            isConnecting = false
            switch result {
            case .success(let connection): install(connection)
            case .failure(let error): fail(TopFailure("Cannot connect to \(path): \(error)"))
            }
        }
    }

    func follow(_ prefix: String, line: @escaping @MainActor (Result<String, TopFailure>) -> Void) {
        follower?.close()
        follower = nil
        followGeneration += 1
        let generation = followGeneration
        TCPConnection.connect(unixPath: path) { [weak self] result in
            guard let self, generation == followGeneration else {
                if case .success(let connection) = result { connection.close() }
                return
            }
            switch result {
            case .failure(let error):
                line(.failure(TopFailure("Cannot follow \(prefix): \(error)")))
            case .success(let connection):
                connection.maximumLineLength = Self.maximumReplyLength
                connection.lines += { [weak self] text in
                    guard self?.followGeneration == generation else { return }
                    line(.success(text))
                }
                connection.didClose += { [weak self] _ in
                    guard let self, followGeneration == generation else { return }
                    follower = nil
                    line(.failure(TopFailure("The app closed the follow of \(prefix).")))
                }
                connection.start()
                _ = connection.writeLine(TopRequest.follow(prefix))
                follower = connection
            }
        }
    }

    func close() {
        followGeneration += 1
        follower?.close()
        follower = nil
        connection?.close()
        connection = nil
    }

    private func install(_ connection: TCPConnection) {
        connection.maximumLineLength = Self.maximumReplyLength
        connection.lines += { [weak self] line in
            guard let self, !waiting.isEmpty else { return }
            waiting.removeFirst()(.success(line))
        }
        connection.didClose += { [weak self, weak connection] _ in
            guard let self, self.connection === connection else { return }
            self.connection = nil
            fail(TopFailure("The app closed the inspection connection (has it exited?)."))
        }
        connection.start()
        self.connection = connection
        for request in unsent { _ = connection.writeLine(request) }
        unsent = []
    }

    /// Tells everyone waiting that no reply comes.
    private func fail(_ failure: TopFailure) {
        let waiting = waiting
        self.waiting = []
        unsent = []
        for reply in waiting { reply(failure.result()) }
    }
}

extension TopFailure {
    fileprivate func result() -> Result<String, TopFailure> { .failure(self) }
}
