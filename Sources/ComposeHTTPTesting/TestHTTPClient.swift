public import ComposeTesting
public import HTTPTypes

/// A client of a `TestApp`'s `HTTPServer` on one simulated connection
/// (`TestApp.httpClient(port:)`): several requests on
/// it (keep-alive), sent one after the other or all at once (pipelining),
/// answers read in request order. No socket: the bytes go over the app's
/// simulated network to its server's real parser, and the answers are
/// read by SwiftNIO's HTTP/1 client parser.
///
/// ```swift
/// let client = try app.httpClient()
/// #expect(try client.request(.get, "/hello/a").text == "hello a\n")
/// client.send(.get, "/hello/b")              // pipelined
/// client.send(.get, "/hello/c")
/// #expect(try client.response().text == "hello b\n")
/// #expect(try client.response().text == "hello c\n")
/// client.close()
/// ```
///
/// Waiting for an answer (``response(within:)``) moves the app's virtual
/// clock from one scheduled action to the next (a handler's timer, the
/// server's timeouts) until the answer is complete; it throws a
/// ``TestHTTPError`` when the app closes the connection first, or when
/// nothing it scheduled within the wait is left to change that.
@MainActor
public final class TestHTTPClient {
    /// The test's end of the connection (what the app sent, raw, and
    /// whether it closed).
    public let peer: TestPeer
    /// The server's port.
    public let port: UInt16
    private weak var app: TestApp?
    private let codec: HTTPClientCodec
    /// How many bytes of `peer.received` the codec has read.
    private var consumed = 0
    /// The requests sent and not yet answered, in order (`GET /a`).
    private var unanswered: [String] = []
    /// A request that could not be sent, reported by the next wait.
    private var failure: TestHTTPError?

    init(app: TestApp, peer: TestPeer, port: UInt16, codec: HTTPClientCodec) {
        self.app = app
        self.peer = peer
        self.port = port
        self.codec = codec
    }

    /// Whether the app ended the connection.
    public var isClosedByApp: Bool { peer.isClosedByApp }

    /// How many requests sent have not been answered yet.
    public var unansweredCount: Int { unanswered.count }

    /// Sends a request and waits for its answer (see ``response(within:)``).
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The path and query (`/items?limit=2`).
    ///   - headers: Header fields (`Host: localhost` and the body's
    ///     `Content-Length` are added unless given).
    ///   - body: The body.
    ///   - within: How much virtual time the app may take to answer.
    public func request(
        _ method: HTTPRequest.Method,
        _ target: String,
        headers: HTTPFields = [:],
        body: [UInt8] = [],
        within: Duration = .seconds(60)
    ) throws(TestHTTPError) -> TestHTTPResponse {
        send(method, target, headers: headers, body: body)
        return try response(within: within)
    }

    /// Sends a request with a UTF-8 text body and waits for its answer.
    public func request(
        _ method: HTTPRequest.Method,
        _ target: String,
        headers: HTTPFields = [:],
        text: String,
        within: Duration = .seconds(60)
    ) throws(TestHTTPError) -> TestHTTPResponse {
        try request(method, target, headers: headers, body: Array(text.utf8), within: within)
    }

    /// Sends a request without waiting: send several, then read their
    /// answers in order with ``response(within:)`` (pipelining). The app
    /// runs what the bytes made due before this returns.
    public func send(_ method: HTTPRequest.Method, _ target: String, headers: HTTPFields = [:], body: [UInt8] = []) {
        let name = "\(method.rawValue) \(target)"
        do {
            let bytes = try codec.encode(method, target, fields: headers, body: body)
            unanswered.append(name)
            peer.write(bytes)
        } catch {
            failure = failure ?? TestHTTPError(reason: .invalidRequest("\(error)"), request: describe(name), received: [])
        }
    }

    /// Sends raw bytes: a partial, slow or malformed request, as a hostile
    /// client would. Its answer is read as an answer to `method` (a `HEAD`
    /// one has no body).
    ///
    /// ```swift
    /// client.sendRaw("GET /hello HTTP/1.1\r\nHost: loc")   // never finished
    /// let answer = try client.response()                  // 408 at the header timeout
    /// ```
    public func sendRaw(_ text: String, answeredAs method: HTTPRequest.Method = .get) {
        sendRaw(Array(text.utf8), answeredAs: method)
    }

    /// Sends raw bytes (see the `String` variant).
    public func sendRaw(_ bytes: [UInt8], answeredAs method: HTTPRequest.Method = .get) {
        do {
            try codec.expectAnswer(to: method)
            unanswered.append("raw request (\(bytes.count) bytes)")
            peer.write(bytes)
        } catch {
            failure = failure ?? TestHTTPError(reason: .invalidRequest("\(error)"), request: describe("raw request"), received: [])
        }
    }

    /// The answer to the oldest request not answered yet: runs the app on
    /// its virtual clock, from one action it scheduled to the next, until
    /// the answer is complete. With no request sent, waits for an answer
    /// the app sends on its own (a 408 to a client that sent nothing).
    ///
    /// - Parameter within: How much virtual time the app may take.
    /// - Throws: ``TestHTTPError``: the app closed or reset the connection
    ///   first (``TestHTTPError/Reason/closedByApp``), nothing it
    ///   scheduled within `within` is left to run
    ///   (``TestHTTPError/Reason/noAnswer(waited:)``), or its answer is not
    ///   HTTP.
    public func response(within: Duration = .seconds(60)) throws(TestHTTPError) -> TestHTTPResponse {
        if let failure {
            self.failure = nil
            throw failure
        }
        guard let app else { throw error(.appGone) }
        if unanswered.isEmpty {
            do { try codec.expectAnswer(to: .get) } catch { throw self.error(.malformedResponse("\(error)")) }
            unanswered.append("no request")
        }
        let start = app.now
        let deadline = start + within
        while true {
            if let response = try read() { return response }
            if peer.isClosedByApp {
                do { try codec.endOfInput() } catch { throw self.error(.malformedResponse("\(error)")) }
                if let response = codec.takeResponse() { return answered(response) }
                throw error(peer.isResetByApp ? .resetByApp : .closedByApp)
            }
            guard let due = app.scheduler.nextDueTime, due <= deadline else {
                throw error(.noAnswer(waited: within))
            }
            app.advance(by: due - app.now)
        }
    }

    /// Closes the connection (the app reads end of input).
    public func close() {
        peer.close()
    }

    /// Feeds what arrived to the parser; the next complete answer, if any.
    private func read() throws(TestHTTPError) -> TestHTTPResponse? {
        let received = peer.received
        if received.count > consumed {
            let new = Array(received[consumed...])
            consumed = received.count
            do { try codec.decode(new) } catch { throw self.error(.malformedResponse("\(error)")) }
        }
        return codec.takeResponse().map(answered)
    }

    private func answered(_ response: TestHTTPResponse) -> TestHTTPResponse {
        if !unanswered.isEmpty { unanswered.removeFirst() }
        return response
    }

    private func error(_ reason: TestHTTPError.Reason) -> TestHTTPError {
        TestHTTPError(reason: reason, request: describe(unanswered.first ?? "no request"), received: Array(peer.received.suffix(4096)))
    }

    private func describe(_ request: String) -> String {
        "\(request) on port \(port)"
    }
}
