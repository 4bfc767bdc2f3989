/// One request's place in its connection's queue of answers: its answer's
/// state, the answer's bytes while the ones ahead of it are not out yet,
/// and its body's delivery. The connection holds the slots in request
/// order; an ``HTTPExchange`` holds its slot, never the other way round, so
/// that an exchange nobody keeps is released (and answered 500).
@MainActor
final class HTTPResponseSlot {
    enum State: Equatable {
        case waiting
        case streaming(HTTPResponseEncoder.Framing)
        case ended
    }

    /// The connection, until it is gone.
    weak var connection: HTTPConnection?
    let version: HTTPVersion
    let isHeadRequest: Bool
    /// Whether the request lets the connection live on after the answer.
    let requestKeepsAlive: Bool
    let expectsContinue: Bool
    private(set) var state: State = .waiting
    /// Whether the connection closes once this answer is out.
    var closesAfter = false
    /// Whether the server answered for the app (a limit, a timeout): a
    /// later answer of the app is dropped without a diagnostic.
    var answeredByServer = false
    /// Whether this slot is first in its connection's queue: its bytes go
    /// to the socket; the others' wait in ``pending``.
    var isFront = false
    /// Encoded bytes waiting for the answers ahead.
    var pending: [UInt8] = []
    private var continueSent = false
    /// Whether the request (its body included) was read to its end.
    var requestComplete = false
    /// Whether the request's body was read and dropped before anyone asked.
    var bodyDropped = false

    // The body's delivery, made when asked for.
    var bodyChunks: Emitter<HTTPBodyChunk>?
    var bodyEnd: SignalEmitter?
    var collected: [UInt8]?
    var collectLimit = Int.max
    var collectedBody: Emitter<[UInt8]>?
    var bodyPaused = false
    var writable: SignalEmitter?
    /// Whether ``isFull`` said so to someone, who waits for ``writable``.
    var reportedFull = false

    init(connection: HTTPConnection?, version: HTTPVersion, isHeadRequest: Bool, keepsAlive: Bool, expectsContinue: Bool) {
        self.connection = connection
        self.version = version
        self.isHeadRequest = isHeadRequest
        requestKeepsAlive = keepsAlive
        self.expectsContinue = expectsContinue
        closesAfter = !keepsAlive
    }

    var isAnswered: Bool { state != .waiting }
    var isEnded: Bool { state == .ended }

    // MARK: Output

    /// Sends `bytes` to the socket if this answer is first in line, else
    /// keeps them for when it is.
    func output(_ bytes: UnsafeRawBufferPointer) {
        guard let connection, !connection.isClosed else { return }
        if isFront {
            connection.write(bytes)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    func output(_ bytes: [UInt8]) {
        bytes.withUnsafeBytesInline { output($0) }
    }

    /// The body was asked for: a client that waits for `100 Continue` gets it.
    func bodyWanted() {
        guard expectsContinue, !continueSent, state == .waiting, !requestComplete else { return }
        continueSent = true
        output(HTTPResponseEncoder.continueLine)
    }

    // MARK: Answering

    /// Whether `call` may answer: reports a second answer.
    private func mayAnswer(_ call: String) -> Bool {
        guard state == .waiting else {
            if !answeredByServer {
                connection?.shared.report(Diagnostic(.httpAlreadyAnswered, "HTTPExchange.\(call) on an exchange already answered: the answer was dropped. Answer each exchange once."))
            }
            return false
        }
        return true
    }

    /// Whether the connection must close after this answer: the request
    /// said so, the server is draining and no request follows, or a client
    /// waiting for `100 Continue` was answered without it (it may or may
    /// not send its body now).
    private func decideClose(explicit: Bool) -> Bool {
        if explicit || !requestKeepsAlive || closesAfter { return true }
        if expectsContinue, !continueSent, !requestComplete { return true }
        if let connection, connection.isDraining, connection.isLastSlot(self) { return true }
        return false
    }

    /// Answers with `body` (generic so that an array is appended as it
    /// is: bytes taken through a main-actor closure cost an executor check).
    func respond<Body: Collection<UInt8>>(_ status: HTTPResponse.Status, fields: HTTPFields, body: Body, call: String = "respond") {
        guard mayAnswer(call), let connection else { return }
        // (No lookups in an empty HTTPFields: its subscript joins values.)
        let close = decideClose(explicit: !fields.isEmpty && fields[.connection]?.lowercased() == "close")
        closesAfter = close
        let sendsBody = HTTPResponseEncoder.allowsBody(status) && !isHeadRequest
        let contentLength = HTTPResponseEncoder.allowsBody(status) && (fields.isEmpty || fields[.contentLength] == nil) ? body.count : nil
        let shared = connection.shared
        // The server's buffer, taken out while in use (a write may reach
        // code that answers another exchange).
        var buffer = shared.takeScratch()
        HTTPResponseEncoder.encodeHead(
            status: status, fields: fields, contentLength: contentLength,
            framing: sendsBody ? .length : .none,
            close: close, keepAliveHeader: version == .http1_0, date: shared.dateLine, into: &buffer
        )
        if sendsBody { buffer.append(contentsOf: body) }
        state = .ended
        output(buffer)
        shared.giveBack(buffer)
        connection.slotEnded(self)
    }

    func writeHead(_ status: HTTPResponse.Status, fields: HTTPFields) {
        guard mayAnswer("writeHead"), let connection else { return }
        var close = decideClose(explicit: fields[.connection]?.lowercased() == "close")
        let framing: HTTPResponseEncoder.Framing
        if !HTTPResponseEncoder.allowsBody(status) || isHeadRequest {
            framing = .none
        } else if fields[.contentLength] != nil {
            framing = .length
        } else if version == .http1_0 {
            framing = .untilClose
            close = true
        } else {
            framing = .chunked
        }
        closesAfter = close
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        HTTPResponseEncoder.encodeHead(
            status: status, fields: fields, contentLength: nil, framing: framing,
            close: close, keepAliveHeader: version == .http1_0, date: connection.shared.dateLine, into: &buffer
        )
        state = .streaming(framing)
        output(buffer)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        if state == .waiting { writeHead(.ok, fields: [:]) }
        guard case .streaming(let framing) = state else {
            if !answeredByServer {
                connection?.shared.report(Diagnostic(.httpAlreadyAnswered, "HTTPExchange.write after the answer ended: the bytes were dropped."))
            }
            return
        }
        switch framing {
        case .chunked:
            var buffer: [UInt8] = []
            buffer.reserveCapacity(bytes.count + 12)
            HTTPResponseEncoder.encodeChunk(bytes, into: &buffer)
            output(buffer)
        case .length, .untilClose:
            output(bytes)
        case .none:
            break
        }
    }

    func end() {
        if state == .waiting { writeHead(.ok, fields: [:]) }
        guard case .streaming(let framing) = state else {
            if !answeredByServer {
                connection?.shared.report(Diagnostic(.httpAlreadyAnswered, "HTTPExchange.end on an answer that already ended."))
            }
            return
        }
        if framing == .chunked { output(HTTPResponseEncoder.lastChunk) }
        state = .ended
        connection?.slotEnded(self)
    }

    /// The server answers for the app (`status`, closing the connection).
    func answerForTheApp(_ status: HTTPResponse.Status, extraFields: HTTPFields = [:], close: Bool) {
        guard let connection else { return }
        switch state {
        case .waiting:
            closesAfter = decideClose(explicit: close)
            let bytes = HTTPResponseEncoder.errorResponse(
                status, extraFields: extraFields, close: closesAfter, headOnly: isHeadRequest,
                keepAliveHeader: version == .http1_0, date: connection.shared.dateLine
            )
            state = .ended
            answeredByServer = true
            output(bytes)
            connection.slotEnded(self)
        case .streaming, .ended:
            // The answer is the app's (or out already): the connection
            // closes after it, or at once if it is out.
            closesAfter = closesAfter || close
            answeredByServer = true
            if case .streaming = state {
                state = .ended
                connection.slotEnded(self)
            }
        }
    }

    /// The exchange was released: unanswered, it gets 500; a streamed
    /// answer left open ends the connection (its client sees it cut).
    func exchangeReleased() {
        guard let connection, !connection.isClosed else { return }
        switch state {
        case .waiting:
            connection.shared.report(Diagnostic(.httpExchangeUnanswered, "An HTTPExchange was released without an answer: the client got 500. Answer every exchange (respond, or writeHead ... end), or keep it until you do."))
            answerForTheApp(.internalServerError, close: false)
        case .streaming:
            connection.shared.report(Diagnostic(.httpExchangeUnanswered, "An HTTPExchange was released while its answer was streaming (no end()): the connection closes, and its client sees the answer cut."))
            closesAfter = true
            state = .ended
            connection.slotEnded(self)
        case .ended:
            break
        }
    }

    // MARK: The request's body

    /// A piece of the body arrived.
    func deliverBody(_ chunk: HTTPBodyChunk) -> Bool {
        if collected != nil {
            guard collected!.count + chunk.count <= collectLimit else { return false }
            chunk.withUnsafeBytes { collected!.append(contentsOf: $0) }
        }
        bodyChunks?.sendWithoutKeeping(chunk)
        if collected == nil, bodyChunks == nil { bodyDropped = true }
        return true
    }

    /// The request is complete.
    func requestEnded() {
        requestComplete = true
        if let collected, let collectedBody {
            self.collected = nil
            collectedBody.send(collected)
        }
        bodyEnd?.send()
        endBodyObservations()
    }

    // MARK: Ending the request's observations

    // The handlers observe this request's emitters (`collectBody(upTo:)`,
    // `body`, `bodyDidEnd`, `didBecomeWritable`) from the route's observer,
    // so each observation is kept by that observer's component (a scope
    // keeps what it observes until it is cancelled), which outlives the
    // request: the observation's closure, holding the exchange, stayed as
    // long as the component (2.4 KB per POST echo, make bench-http). Once
    // an emitter has nothing more to send, its observers are cancelled.

    /// The body's emitters are done: cancels their observers.
    func endBodyObservations() {
        collectedBody?.removeAllObservers()
        bodyChunks?.removeAllObservers()
        bodyEnd?.removeAllObservers()
    }

    /// The answer is out, or the connection closed: nothing waits for
    /// writability any more.
    func endWritableObservations() {
        writable?.removeAllObservers()
    }
}
