internal import ComposeApp
public import ComposeTesting
public import HTTPTypes

extension TestApp {
    /// Sends one request to the app's `HTTPServer` over the simulated
    /// network and returns its answer: the bytes reach the server's real
    /// parser and its answer is read by a client's (SwiftNIO's), with no
    /// socket. The app runs on its virtual clock until the answer is
    /// complete (a handler answering after a timer is waited for); the
    /// connection is closed after it.
    ///
    /// ```swift
    /// let app = TestApp(root: GreetingAPI())
    /// let response = try app.http(.get, "/hello/ada")
    /// #expect(response.status == .ok)
    /// #expect(response.text == "hello ada\n")
    /// #expect(try app.http(.post, "/echo", text: "ping").text == "ping")
    /// ```
    ///
    /// For several requests on one connection (keep-alive, pipelining),
    /// use `httpClient(port:)`. An HTTPS server is asked over TestApp's
    /// simulated TLS (see `httpClient(port:)`).
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - target: The path and query (`/items?limit=2`).
    ///   - port: The server's port; by default the port of the app's only
    ///     listening `HTTPServer`.
    ///   - headers: Header fields (`Host: localhost` and the body's
    ///     `Content-Length` are added unless given).
    ///   - body: The body.
    ///   - within: How much virtual time the app may take to answer.
    /// - Throws: ``TestHTTPError``: no server listens, the app closed the
    ///   connection or never answers (nothing it scheduled within `within`
    ///   is left to run), or its answer is not HTTP.
    public func http(
        _ method: HTTPRequest.Method,
        _ target: String,
        port: UInt16? = nil,
        headers: HTTPFields = [:],
        body: [UInt8] = [],
        within: Duration = .seconds(60)
    ) throws(TestHTTPError) -> TestHTTPResponse {
        let client = try httpClient(port: port)
        defer { if !client.isClosedByApp { client.close() } }
        do {
            return try client.request(method, target, headers: headers, body: body, within: within)
        } catch {
            throw error
        }
    }

    /// Sends one request with a UTF-8 text body (see
    /// `http(_:_:port:headers:body:within:)`).
    public func http(
        _ method: HTTPRequest.Method,
        _ target: String,
        port: UInt16? = nil,
        headers: HTTPFields = [:],
        text: String,
        within: Duration = .seconds(60)
    ) throws(TestHTTPError) -> TestHTTPResponse {
        try http(method, target, port: port, headers: headers, body: Array(text.utf8), within: within)
    }

    /// Opens a connection to the app's `HTTPServer` over the simulated
    /// network, for several requests (keep-alive, pipelining, raw bytes):
    /// see ``TestHTTPClient``. The connection to an HTTPS server
    /// (ComposeHTTPS) goes through TestApp's simulated TLS handshake, as a
    /// client trusting the server's certificate for `localhost` and
    /// offering ALPN `http/1.1`, like `curl https://localhost`.
    ///
    /// - Parameter port: The server's port; by default the port of the
    ///   app's only listening `HTTPServer`.
    /// - Throws: ``TestHTTPError``: no server listens there (or none at
    ///   all, or several and no `port`).
    public func httpClient(port: UInt16? = nil) throws(TestHTTPError) -> TestHTTPClient {
        let chosen = try httpPort(port)
        let peer: TestPeer
        // A TLS client of a plain server is a plain one (TestApp's
        // simulated TLS): an HTTPS server is asked as curl would ask it.
        do { peer = try connect(port: chosen, tls: .client(applicationProtocols: ["http/1.1"])) } catch {
            throw TestHTTPError(reason: .noServer, request: "connecting to port \(chosen)", received: [])
        }
        do {
            return TestHTTPClient(app: self, peer: peer, port: chosen, codec: try HTTPClientCodec())
        } catch {
            throw TestHTTPError(reason: .invalidRequest("the client codec: \(error)"), request: "connecting to port \(chosen)", received: [])
        }
    }

    /// `port`, or the port of the app's only listening HTTP server (a
    /// `TCPServer` whose connections an `HTTPServer` serves).
    private func httpPort(_ port: UInt16?) throws(TestHTTPError) -> UInt16 {
        if let port { return port }
        let servers = context.simulatedNetwork?.listeningServers ?? []
        let http = servers.filter { $0.server.acceptHandler != nil }.map(\.port)
        switch http.count {
        case 1: return http[0]
        case 0: throw TestHTTPError(reason: .noServer, request: "finding the app's HTTP server", received: [])
        default: throw TestHTTPError(reason: .severalServers(ports: http), request: "finding the app's HTTP server", received: [])
        }
    }
}
