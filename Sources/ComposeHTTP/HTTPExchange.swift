/// One request and its answer, handed to the observers of a route
/// (``HTTPServer/route(_:_:)``).
///
/// Answer once: ``respond(_:headers:body:)-(_,_,[UInt8])``, ``respond(_:headers:text:)``,
/// or a stream (``writeHead(_:headers:)``, ``write(_:)-(UnsafeRawBufferPointer)``,
/// ``end()``). The answer may come later (after a timer, a child process,
/// an awaited task): keep the exchange until then. An exchange released
/// with no answer is answered 500 and reported as a `Diagnostic`
/// (`Diagnostic.Code.httpExchangeUnanswered`); a second answer is
/// dropped and reported (`Diagnostic.Code.httpAlreadyAnswered`).
/// Answers leave in request order: one ready before those of earlier
/// pipelined requests waits for them.
///
/// ```swift
/// server.route(.get, "/hello/:name") += { exchange in
///     exchange.respond(.ok, text: "hello \(exchange.parameters["name"] ?? "")\n")
/// }
/// ```
///
/// **The body** is the handler's to ask for, in the handler itself:
/// ``collectBody(upTo:)`` (the whole body, once it arrived) or ``body``
/// (each piece as it arrives, with ``pauseBody()``); a body nobody asked
/// for is read and dropped. A client that sent `Expect: 100-continue`
/// gets `100 Continue` when its body is asked for.
@MainActor
public final class HTTPExchange {
    /// The request: method, target (`path`, with its query), `authority`
    /// (the `Host` header) and the header fields as received.
    public let request: HTTPRequest
    /// The request's path, without its query (`/hello/ada`).
    public let path: String
    /// The query, after `?`, if there is one (not decoded).
    public let query: String?
    /// The route's parameters: `:name` segments (percent-decoded), and
    /// `*` for the rest of the path under a pattern ending in `*`.
    public let parameters: [String: String]
    /// The request's HTTP version.
    public let version: HTTPVersion
    /// The client's address (`127.0.0.1:53122`).
    public let remoteAddress: String
    let slot: HTTPResponseSlot
    /// Set when the handlers returned without ending the answer: answers
    /// 500 once this exchange is released unanswered (see
    /// ``HTTPExchangeReleaseWatch``).
    var releaseWatch: HTTPExchangeReleaseWatch?

    init(request: HTTPRequest, path: String, query: String?, parameters: [String: String], version: HTTPVersion, remoteAddress: String, slot: HTTPResponseSlot) {
        self.request = request
        self.path = path
        self.query = query
        self.parameters = parameters
        self.version = version
        self.remoteAddress = remoteAddress
        self.slot = slot
    }

    /// Whether an answer was begun (or given).
    public var isAnswered: Bool { slot.isAnswered }

    /// Whether the connection is still open (an answer to a client that
    /// left goes nowhere, silently).
    public var isConnected: Bool { !(slot.connection?.isClosed ?? true) }

    // MARK: Answering at once

    /// Answers with `body`. The server adds `Content-Length`, `Date` and,
    /// when the connection will close, `Connection: close`; for `HEAD` the
    /// body is not sent.
    public func respond(_ status: HTTPResponse.Status, headers: HTTPFields = [:], body: [UInt8] = []) {
        slot.respond(status, fields: headers, body: body)
    }

    /// Answers with `body`'s bytes.
    public func respond(_ status: HTTPResponse.Status, headers: HTTPFields = [:], body: UnsafeRawBufferPointer) {
        slot.respond(status, fields: headers, body: body)
    }

    /// Answers with `text` in UTF-8, as `text/plain; charset=utf-8` unless
    /// `headers` give a `Content-Type`.
    public func respond(_ status: HTTPResponse.Status, headers: HTTPFields = [:], text: String) {
        var headers = headers
        if headers[.contentType] == nil { headers[.contentType] = "text/plain; charset=utf-8" }
        var text = text
        text.withUTF8Inline { slot.respond(status, fields: headers, body: UnsafeRawBufferPointer($0)) }
    }

    // MARK: Streaming an answer

    /// Begins a streamed answer: its head now, its body in
    /// ``write(_:)-(UnsafeRawBufferPointer)`` calls, then ``end()``. With a
    /// `Content-Length` in `headers` the body is sent as it is (write that
    /// many bytes); without, it is chunked (to an HTTP/1.0 client: sent
    /// as it is, and the connection closes after it).
    public func writeHead(_ status: HTTPResponse.Status, headers: HTTPFields = [:]) {
        slot.writeHead(status, fields: headers)
    }

    /// Writes a piece of the streamed body (``writeHead(_:headers:)`` with
    /// 200 first, if it was not called).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        slot.write(bytes)
    }

    /// Writes a piece of the streamed body.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytesInline { slot.write($0) }
    }

    /// Writes `text`'s UTF-8 bytes as a piece of the streamed body.
    public func write(_ text: String) {
        var text = text
        text.withUTF8Inline { slot.write(UnsafeRawBufferPointer($0)) }
    }

    /// Ends the streamed answer.
    public func end() {
        slot.end()
    }

    /// Whether writes should wait for ``didBecomeWritable``: the
    /// connection's send queue is full (or, for an answer behind earlier
    /// ones, what it holds reached the queue's high-water mark).
    public var isFull: Bool {
        slot.connection?.isFull(slot) ?? false
    }

    /// Sent when writes may go on after ``isFull`` said `true` (and when
    /// the connection closed: nothing waits for it any more).
    public var didBecomeWritable: SignalEmitter {
        if let writable = slot.writable { return writable }
        let writable = SignalEmitter()
        slot.writable = writable
        return writable
    }

    // MARK: The request's body

    /// The whole body, sent once when it has arrived (at once for a
    /// request without one). Past `limit` bytes (or the server's
    /// ``HTTPServer/Limits/maximumBodySize``) the answer is 413 and the
    /// connection closes. Ask in the handler itself.
    ///
    /// ```swift
    /// exchange.collectBody(upTo: 1 << 20) += { body in
    ///     exchange.respond(.ok, body: body)
    /// }
    /// ```
    public func collectBody(upTo limit: Int) -> Emitter<[UInt8]> {
        if let collected = slot.collectedBody { return collected }
        let collected = Emitter<[UInt8]>()
        slot.collectedBody = collected
        slot.collectLimit = max(0, limit)
        if slot.requestComplete {
            // Read already: a request without a body, or asked too late.
            if slot.bodyDropped {
                slot.connection?.shared.report(Diagnostic(.httpBodyNotAvailable, "HTTPExchange.collectBody was called after the body was read and dropped: ask for the body in the route's handler itself."))
            }
            let scheduler = slot.connection?.shared.scheduler
            _ = scheduler?.schedule(after: .zero) {
                collected.send([])
                collected.removeAllObservers()
            }
            return collected
        }
        slot.collected = []
        slot.bodyWanted()
        return collected
    }

    /// Each piece of the body as it arrives (views of the read chunk,
    /// copied only if kept); ``bodyDidEnd`` follows the last. Ask in the
    /// handler itself.
    public var body: Emitter<HTTPBodyChunk> {
        if let chunks = slot.bodyChunks { return chunks }
        let chunks = Emitter<HTTPBodyChunk>()
        slot.bodyChunks = chunks
        if slot.requestComplete, slot.bodyDropped {
            slot.connection?.shared.report(Diagnostic(.httpBodyNotAvailable, "HTTPExchange.body was asked for after the body was read and dropped: ask for the body in the route's handler itself."))
        }
        slot.bodyWanted()
        return chunks
    }

    /// Sent once the whole body has arrived (after the last ``body``
    /// piece).
    public var bodyDidEnd: SignalEmitter {
        if let end = slot.bodyEnd { return end }
        let end = SignalEmitter()
        slot.bodyEnd = end
        return end
    }

    /// Stops reading the body (and the connection) until ``resumeBody()``:
    /// a body relayed to a slow sink pauses its client.
    public func pauseBody() {
        slot.bodyPaused = true
    }

    /// Goes on reading the body after ``pauseBody()``.
    public func resumeBody() {
        guard slot.bodyPaused else { return }
        slot.bodyPaused = false
        slot.connection?.resumeParsing()
    }
}
