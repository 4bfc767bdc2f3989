internal import CHTTPParser
import Logging

/// One HTTP connection of a server: feeds what its TCP connection reads to
/// the parser, hands each request out as an ``HTTPExchange``, and sends the
/// answers in request order.
///
/// Parsing runs on the read chunk in place. It stops (and the socket
/// stops reading; the rest of the chunk waits, uncopied) while
/// ``HTTPServer/Limits/maximumPipelinedRequests`` wait for an answer,
/// while the send queue is full, or while the app paused a body; it
/// stops for good after a request that ends the connection, a limit or a
/// malformed request.
@MainActor
final class HTTPConnection {
    let tcp: TCPConnection
    let shared: HTTPServerShared
    /// The parser: held strongly here, and by ``parse(_:from:)`` for each
    /// call into C (see docs/unsafe.md, `HTTPRequestParser`).
    private let parser: HTTPRequestParser
    /// The answers owed, in request order; the first one's bytes go out.
    private(set) var slots: [HTTPResponseSlot] = []
    /// The request whose body is being read.
    private var current: HTTPResponseSlot?
    /// Chunks (and where in them) waiting for parsing to go on.
    private var held: [(chunk: ByteChunk, offset: Int)] = []
    private var isParsing = false
    private(set) var isClosed = false
    private(set) var isDraining = false
    /// Nothing more is parsed: the last request was read, or the input broke a limit.
    private var stopped = false
    /// Parse nothing after the message being read.
    private var stopsAfterMessage = false
    private var inputEnded = false
    private var servedAny = false
    private var headStart: Duration = .zero
    private var bodyActivity: Duration = .zero
    private var idleSince: Duration = .zero
    private var timeoutCheck: (action: ScheduledAction, scheduler: any Scheduler)?
    /// When the scheduled check runs.
    private var checkDue: Duration = .zero
    /// Told once the socket closed (the server forgets the connection).
    var onClose: (@MainActor (HTTPConnection) -> Void)?

    init(tcp: TCPConnection, shared: HTTPServerShared) {
        self.tcp = tcp
        self.shared = shared
        parser = HTTPRequestParser(limits: shared.limits)
        // Answers owed after the client's half-close still go out.
        tcp.closesOnEndOfInput = false
        tcp.emitter.observe { [weak self] chunk in self?.received(chunk) }
        tcp.didReachEnd.observe { [weak self] in self?.endOfInput() }
        tcp.didBecomeWritable.observe { [weak self] in self?.becameWritable() }
        tcp.willDrain.observe { [weak self] in self?.drain() }
        tcp.didClose.observe { [weak self] _ in self?.closed() }
    }

    isolated deinit {
        if let (action, scheduler) = timeoutCheck { scheduler.cancel(action) }
    }

    func start() {
        idleSince = now
        arm(after: shared.limits.headerReadTimeout)
        tcp.start()
    }

    private var now: Duration { shared.scheduler?.now ?? .zero }

    // MARK: Reading

    private func received(_ chunk: ByteChunk) {
        guard !isClosed, !stopped else { return }
        if !held.isEmpty {
            held.append((chunk, 0))
            tcp.pauseReading()
            return
        }
        let time = now
        if !parser.isInMessage { headStart = time }
        bodyActivity = time
        if let rest = parse(chunk, from: 0) {
            held.append((chunk, rest))
            tcp.pauseReading()
        }
        if parser.isInHead {
            checkBy(headStart + shared.limits.headerReadTimeout)
        } else if parser.isInMessage {
            checkBy(time + shared.limits.bodyIdleTimeout)
        }
    }

    /// Whether parsing must wait: the app paused the body; or, between
    /// requests, enough answers are owed or the send queue is full.
    private var mustHold: Bool {
        if let current, current.bodyPaused { return true }
        if parser.isInMessage { return false }
        return slots.count >= shared.limits.maximumPipelinedRequests || tcp.isFull
    }

    /// Parses `chunk` from `offset`, handing out what completes; returns
    /// where it stopped if parsing must wait, `nil` once it is all read.
    private func parse(_ chunk: ByteChunk, from offset: Int) -> Int? {
        // Held for the C calls: an app's handler may drop this connection
        // (and so the parser) between two of them.
        let parser = self.parser
        isParsing = true
        defer { isParsing = false }
        var offset = offset
        while offset < chunk.count {
            if isClosed || stopped { return nil }
            if mustHold { return offset }
            let start = offset
            let (consumed, event) = parser.execute(UnsafeRawBufferPointer(rebasing: chunk.bytes[offset...]))
            offset += consumed
            switch event {
            case .none:
                if consumed == 0 { return nil }
            case .head:
                handleHead(parser)
            case .body(let at, let count):
                handleBody(HTTPBodyChunk(chunk: chunk, offset: start + at, count: count))
            case .end:
                handleEnd()
            case .failed(let failure):
                handleFailure(failure)
                return nil
            }
        }
        return nil
    }

    /// Parsing goes on with the held chunks, if nothing holds it any more.
    func resumeParsing() {
        guard !isParsing, !isClosed else { return }
        while let first = held.first {
            if stopped {
                held = []
                return
            }
            if mustHold { return }
            held.removeFirst()
            if let rest = parse(first.chunk, from: first.offset) {
                held.insert((first.chunk, rest), at: 0)
                return
            }
        }
        if !stopped, !isClosed { tcp.resumeReading() }
    }

    private func handleHead(_ parser: HTTPRequestParser) {
        servedAny = true
        let method = Self.method(parser.method)
        // Host and Expect are noted on the way: HTTPFields' subscript by
        // name joins the values it finds, several times the cost of this
        // loop for a short request (profile_http.sh).
        var fields = HTTPFields()
        var host: String?
        var expectations: [String] = []
        parser.forEachHeader { name, value in
            guard let name = HTTPField.Name(String(decoding: name, as: UTF8.self)) else { return }
            let field = HTTPField(name: name, parsedValue: value)
            if name == Self.host {
                host = host.map { "\($0), \(field.value)" } ?? field.value
            } else if name == .expect {
                expectations.append(field.value)
            }
            fields.append(field)
        }
        let version = HTTPVersion(major: parser.versionMajor, minor: parser.versionMinor)
        let keepsAlive = parser.keepsAlive && !isDraining
        if !keepsAlive { stopsAfterMessage = true }
        let expectsContinue = expectations.count == 1 && expectations[0].lowercased() == "100-continue"
        let slot = HTTPResponseSlot(
            connection: self, version: version, isHeadRequest: method == .head,
            keepsAlive: keepsAlive, expectsContinue: expectsContinue
        )
        slot.isFront = slots.isEmpty
        slots.append(slot)
        current = slot
        let target = String(decoding: parser.targetBytes, as: UTF8.self)
        let (path, query) = Self.split(target)
        switch shared.routes.match(method, path: path) {
        case .route(let route, let parameters):
            let request = HTTPRequest(method: method, scheme: nil, authority: host, path: target, headerFields: fields)
            let exchange = HTTPExchange(
                request: request, path: String(path), query: query.map(String.init), parameters: parameters,
                version: version, remoteAddress: tcp.remoteAddress, slot: slot
            )
            route.exchanges.sendWithoutKeeping(exchange)
            if !slot.isEnded { exchange.releaseWatch = HTTPExchangeReleaseWatch(slot: slot) }
        case .methodNotAllowed(let methods):
            var allow = HTTPFields()
            allow[.allow] = methods.map(\.rawValue).joined(separator: ", ")
            slot.answerForTheApp(.methodNotAllowed, extraFields: allow, close: false)
        case .notFound:
            slot.answerForTheApp(.notFound, close: false)
        }
    }

    private func handleBody(_ chunk: HTTPBodyChunk) {
        guard let slot = current else { return }
        if !slot.deliverBody(chunk) {
            // Past the exchange's own limit (collectBody(upTo:)).
            stop(answering: slot, .contentTooLarge, why: "a body past \(slot.collectLimit) bytes (collectBody(upTo:))")
        }
    }

    private func handleEnd() {
        let slot = current
        current = nil
        slot?.requestEnded()
        if stopsAfterMessage {
            stopped = true
            held = []
            tcp.pauseReading()
        }
    }

    private func handleFailure(_ failure: HTTPRequestParser.Failure) {
        let (status, why): (HTTPResponse.Status, String) = switch failure {
        case .malformed(let reason): (.badRequest, "a malformed request (\(reason))")
        case .targetTooLong: (.uriTooLong, "a request target past \(shared.limits.maximumRequestTargetLength) bytes")
        case .headersTooLarge: (.requestHeaderFieldsTooLarge, "headers past \(shared.limits.maximumHeaderSize) bytes")
        case .tooManyHeaders: (.requestHeaderFieldsTooLarge, "more than \(shared.limits.maximumHeaderCount) header fields")
        case .bodyTooLarge: (.contentTooLarge, "a body past \(shared.limits.maximumBodySize) bytes")
        }
        stop(answering: current, status, why: why)
    }

    /// Stops reading for good and answers `status` (to `slot`, the request
    /// being read, or in a slot of its own), then the connection closes.
    private func stop(answering slot: HTTPResponseSlot?, _ status: HTTPResponse.Status, why: String) {
        tcp.logger.info("HTTP \(tcp.remoteAddress): \(why): \(status.code), closing")
        stopped = true
        held = []
        tcp.pauseReading()
        let reading = current
        current = nil
        // After the answer below (ending the observations may release the
        // exchange, which would answer 500 if it had no answer yet): no
        // more of this body comes.
        defer { reading?.endBodyObservations() }
        if let slot, slots.contains(where: { $0 === slot }) {
            slot.answerForTheApp(status, close: true)
        } else if slot != nil {
            // The app's answer to that request is out already: nothing
            // more can be said to this client. Close after what is owed.
            if let last = slots.last {
                last.closesAfter = true
            } else {
                closeGracefully()
            }
        } else {
            let slot = HTTPResponseSlot(connection: self, version: .http1_1, isHeadRequest: false, keepsAlive: false, expectsContinue: false)
            slot.isFront = slots.isEmpty
            slots.append(slot)
            slot.answerForTheApp(status, close: true)
        }
    }

    private func endOfInput() {
        inputEnded = true
        if slots.isEmpty, held.isEmpty { closeGracefully() }
    }

    // MARK: Writing

    func write(_ bytes: UnsafeRawBufferPointer) {
        _ = tcp.write(bytes)
    }

    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytesInline { _ = tcp.write($0) }
    }

    func isLastSlot(_ slot: HTTPResponseSlot) -> Bool {
        slots.last === slot && (!parser.isInMessage || current === slot)
    }

    /// `slot`'s answer ended: if it was first, the answers behind it go out.
    func slotEnded(_ slot: HTTPResponseSlot) {
        guard slot.isFront else { return }
        advance()
    }

    private func advance() {
        while let front = slots.first, front.isEnded {
            slots.removeFirst()
            front.endWritableObservations()
            if front.closesAfter {
                closeGracefully()
                return
            }
            guard let next = slots.first else { break }
            next.isFront = true
            if !next.pending.isEmpty {
                let pending = next.pending
                next.pending = []
                write(pending)
            }
            if next.reportedFull, !tcp.isFull {
                next.reportedFull = false
                next.writable?.send()
            }
        }
        guard !isClosed else { return }
        if slots.isEmpty {
            idleSince = now
            checkBy(idleSince + shared.limits.keepAliveTimeout)
            if (isDraining || inputEnded), !parser.isInMessage, held.isEmpty {
                closeGracefully()
                return
            }
        }
        resumeParsing()
    }

    private func becameWritable() {
        if let front = slots.first, front.reportedFull {
            front.reportedFull = false
            front.writable?.send()
        }
        resumeParsing()
    }

    /// Whether `slot`'s writes should wait.
    func isFull(_ slot: HTTPResponseSlot) -> Bool {
        let full = slot.isFront ? tcp.isFull : slot.pending.count >= tcp.highWaterMark
        if full { slot.reportedFull = true }
        return full
    }

    // MARK: Closing

    private func drain() {
        isDraining = true
        if slots.isEmpty, !parser.isInMessage { closeGracefully() }
    }

    /// Writes out what is queued, then closes.
    func closeGracefully() {
        stopped = true
        held = []
        tcp.close()
    }

    private func closed() {
        guard !isClosed else { return }
        isClosed = true
        if let (action, scheduler) = timeoutCheck { scheduler.cancel(action) }
        timeoutCheck = nil
        held = []
        let reading = current
        current = nil
        let waiting = slots
        slots = []
        for slot in waiting where slot.reportedFull {
            slot.reportedFull = false
            slot.writable?.send()
        }
        // Nothing more comes for these requests (see HTTPResponseSlot's
        // "Ending the request's observations").
        for slot in waiting {
            slot.endBodyObservations()
            slot.endWritableObservations()
        }
        reading?.endBodyObservations()
        onClose?(self)
    }

    // MARK: Timeouts (one check per connection, re-armed lazily)

    private func arm(after delay: Duration) {
        guard let scheduler = shared.scheduler else { return }
        let action = scheduler.schedule(after: delay) { [weak self] in self?.checkTimeouts() }
        timeoutCheck = (action, scheduler)
        checkDue = scheduler.now + delay
    }

    /// Makes sure a check runs by `deadline`: moves the scheduled one
    /// earlier if it is later (rare: a phase with a shorter timeout than
    /// the one the check was set for).
    private func checkBy(_ deadline: Duration) {
        guard timeoutCheck == nil || deadline < checkDue, !isClosed else { return }
        if let (action, scheduler) = timeoutCheck { scheduler.cancel(action) }
        arm(after: max(.zero, deadline - now))
    }

    private func checkTimeouts() {
        timeoutCheck = nil
        guard !isClosed else { return }
        let limits = shared.limits
        let time = now
        let remaining: Duration
        if parser.isInHead {
            let elapsed = time - headStart
            guard elapsed < limits.headerReadTimeout else {
                stop(answering: nil, .requestTimeout, why: "no complete head within \(limits.headerReadTimeout) (headerReadTimeout)")
                return
            }
            remaining = limits.headerReadTimeout - elapsed
        } else if parser.isInMessage, let current, !current.bodyPaused {
            let elapsed = time - bodyActivity
            guard elapsed < limits.bodyIdleTimeout else {
                stop(answering: current, .requestTimeout, why: "no body byte for \(limits.bodyIdleTimeout) (bodyIdleTimeout)")
                return
            }
            remaining = limits.bodyIdleTimeout - elapsed
        } else if slots.isEmpty, held.isEmpty, !stopped {
            let limit = servedAny ? limits.keepAliveTimeout : limits.headerReadTimeout
            let elapsed = time - idleSince
            guard elapsed < limit else {
                closeGracefully()
                return
            }
            remaining = limit - elapsed
        } else if stopped, slots.isEmpty {
            // Nothing is read any more and nothing is owed.
            closeGracefully()
            return
        } else {
            remaining = min(limits.headerReadTimeout, limits.keepAliveTimeout)
        }
        arm(after: remaining)
    }

    // MARK: Helpers

    /// The path and the query of a request target (origin form, or the
    /// path of an absolute form).
    static func split(_ target: String) -> (path: Substring, query: Substring?) {
        // On the UTF-8 view: a Character search costs several times more
        // (the indices are the same, so the slices are the String's).
        var rest = target[...]
        if rest.utf8.first != UInt8(ascii: "/"), let scheme = rest.firstRange(of: "://") {
            rest = rest[scheme.upperBound...]
            rest = rest[(rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex)...]
        }
        guard let mark = rest.utf8.firstIndex(of: UInt8(ascii: "?")) else { return (rest, nil) }
        return (rest[..<mark], rest[rest.utf8.index(after: mark)...])
    }

    static let host = HTTPField.Name("Host")!

    static func method(_ method: http_method) -> HTTPRequest.Method {
        switch method {
        case HTTP_GET: .get
        case HTTP_POST: .post
        case HTTP_HEAD: .head
        case HTTP_PUT: .put
        case HTTP_DELETE: .delete
        case HTTP_PATCH: .patch
        case HTTP_OPTIONS: .options
        case HTTP_CONNECT: .connect
        case HTTP_TRACE: .trace
        default: HTTPRequest.Method(String(cString: http_method_str(method))) ?? .get
        }
    }
}
