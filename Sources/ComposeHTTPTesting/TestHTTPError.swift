/// Why a test's HTTP request got no response
/// (`TestApp.http(_:_:port:headers:body:within:)`,
/// ``TestHTTPClient``): the reason, the request, and what arrived.
///
/// ```swift
/// #expect(throws: TestHTTPError.self) { try app.http(.get, "/never") }
/// ```
public struct TestHTTPError: Error, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Reason: Equatable, Sendable {
        /// No server of the app listens (on the port given, or at all).
        case noServer
        /// Several HTTP servers of the app listen: say which `port:`.
        case severalServers(ports: [UInt16])
        /// The app closed the connection before the response was
        /// complete.
        case closedByApp
        /// The app reset the connection.
        case resetByApp
        /// Nothing the app has scheduled (a timer, a timeout) is due
        /// within the wait, and no response came: it will never answer.
        case noAnswer(waited: Duration)
        /// What the app sent is not an HTTP/1.1 response (the client
        /// parser's error).
        case malformedResponse(String)
        /// The request could not be encoded (an invalid field, ...).
        case invalidRequest(String)
        /// The `TestApp` is gone.
        case appGone
    }

    /// What happened.
    public let reason: Reason
    /// The request: `GET /path on port 8080`.
    public let request: String
    /// The last bytes the app sent on the connection (up to 4 KiB), if
    /// any: a response cut off, or one the parser rejected, ends them.
    public let received: [UInt8]

    /// The request, what happened and what arrived: `GET /slow on port
    /// 8080: the app did not answer within 2.0 seconds of virtual time
    /// (...); nothing received`.
    public var description: String {
        let what: String
        switch reason {
        case .noServer: what = "no HTTP server of the app listens"
        case .severalServers(let ports): what = "several HTTP servers of the app listen (ports \(ports.map(String.init).joined(separator: ", "))): pass port:"
        case .closedByApp: what = "the app closed the connection before a complete response"
        case .resetByApp: what = "the app reset the connection"
        case .noAnswer(let waited): what = "the app did not answer within \(waited) of virtual time (nothing it scheduled in that time is left to run)"
        case .malformedResponse(let error): what = "the app's response is not valid HTTP/1.1 (\(error))"
        case .invalidRequest(let error): what = "the request could not be encoded (\(error))"
        case .appGone: what = "the TestApp is gone"
        }
        let tail = received.isEmpty ? "nothing received" : "received \(received.count) bytes: \(String(reflecting: String(decoding: received.prefix(200), as: UTF8.self)))"
        return "\(request): \(what); \(tail)"
    }
}
