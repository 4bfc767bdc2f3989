internal import CHTTPParser

/// One connection's request parser: libhttp-parser's state, and what its
/// callbacks saw since the connection last looked.
///
/// Not main-actor isolated: the callbacks are C functions that reach it
/// through `http_parser.data` (an unretained reference, see
/// docs/unsafe.md), and they only count, check limits and note what they
/// saw. Each callback that produces something (a head, a piece of body,
/// a message's end) pauses the parser, so `execute` returns after one
/// event and ``HTTPConnection`` hands it to the app between two calls;
/// no code of the app ever runs inside `http_parser_execute`.
final class HTTPRequestParser {
    /// What the last ``execute(_:)`` stopped at.
    enum Event: Equatable {
        /// The bytes were consumed; nothing complete yet.
        case none
        /// A request's head is complete (read it with ``takeHead()``).
        case head
        /// A piece of body: `count` bytes at `offset` in the executed bytes.
        case body(offset: Int, count: Int)
        /// The request (its body included) is complete.
        case end
        /// The request broke the protocol or a limit.
        case failed(HTTPRequestParser.Failure)
    }

    /// Why parsing stopped for good.
    enum Failure: Equatable {
        case malformed(String)
        case targetTooLong
        case headersTooLarge
        case tooManyHeaders
        case bodyTooLarge
    }

    /// The C parser, allocated here and freed in deinit; its `data` is
    /// this object, unretained.
    private let parser: UnsafeMutablePointer<http_parser>
    /// The callbacks (C function pointers), shared by nothing else.
    private let settings: UnsafeMutablePointer<http_parser_settings>

    let maximumTargetLength: Int
    let maximumHeaderSize: Int
    let maximumHeaderCount: Int
    let maximumBodySize: Int

    // What the callbacks note for the message being parsed.
    fileprivate var event: Event = .none
    fileprivate var failure: Failure?
    /// Where the executed bytes start, for body offsets.
    fileprivate var base: UnsafeRawPointer?
    /// The head being read, in one stored property: a callback changes it
    /// with one exclusive access (each access to a class's stored property
    /// is checked at run time; several per callback showed in profiles).
    fileprivate var head = Head()
    fileprivate var bodyBytes = 0
    /// Whether a message has begun and its head is not complete.
    private(set) var isInHead = false
    /// Whether a message has begun and is not complete.
    private(set) var isInMessage = false

    init(limits: HTTPServer.Limits) {
        maximumTargetLength = limits.maximumRequestTargetLength
        maximumHeaderSize = limits.maximumHeaderSize
        maximumHeaderCount = limits.maximumHeaderCount
        maximumBodySize = limits.maximumBodySize
        parser = .allocate(capacity: 1)
        settings = .allocate(capacity: 1)
        http_parser_init(parser, HTTP_REQUEST)
        http_parser_settings_init(settings)
        settings.pointee.on_message_begin = { parser in
            HTTPRequestParser.of(parser).messageBegan()
        }
        settings.pointee.on_url = { parser, at, length in
            HTTPRequestParser.of(parser).url(at, length)
        }
        settings.pointee.on_header_field = { parser, at, length in
            HTTPRequestParser.of(parser).headerField(at, length)
        }
        settings.pointee.on_header_value = { parser, at, length in
            HTTPRequestParser.of(parser).headerValue(at, length)
        }
        settings.pointee.on_headers_complete = { parser in
            HTTPRequestParser.of(parser).headersComplete()
        }
        settings.pointee.on_body = { parser, at, length in
            HTTPRequestParser.of(parser).body(at, length)
        }
        settings.pointee.on_message_complete = { parser in
            HTTPRequestParser.of(parser).messageComplete()
        }
        parser.pointee.data = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        parser.deallocate()
        settings.deallocate()
    }

    /// The parser whose C state is `parser`: its `data`, unretained. Valid
    /// because a callback runs only inside ``execute(_:)``, whose caller
    /// holds this object (see docs/unsafe.md).
    private static func of(_ parser: UnsafeMutablePointer<http_parser>?) -> HTTPRequestParser {
        Unmanaged<HTTPRequestParser>.fromOpaque(parser!.pointee.data).takeUnretainedValue()
    }

    /// Parses `bytes` up to the first event; returns how many were consumed
    /// and the event. The caller holds this object for the call.
    func execute(_ bytes: UnsafeRawBufferPointer) -> (consumed: Int, event: Event) {
        event = .none
        base = bytes.baseAddress
        let consumed = http_parser_execute(parser, settings, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        base = nil
        let error = compose_http_errno(parser)
        if error == HPE_PAUSED {
            http_parser_pause(parser, 0)
        } else if error != HPE_OK {
            let failure = failure ?? .malformed(String(cString: http_errno_description(error)))
            return (consumed, .failed(failure))
        }
        return (consumed, event)
    }

    // MARK: What the connection reads once a head is complete

    var method: http_method { compose_http_method(parser) }
    var versionMajor: Int { Int(parser.pointee.http_major) }
    var versionMinor: Int { Int(parser.pointee.http_minor) }
    /// libhttp-parser's keep-alive rule (HTTP/1.1 unless `close`, HTTP/1.0
    /// with `keep-alive`), and no upgrade.
    var keepsAlive: Bool { http_should_keep_alive(parser) != 0 && !compose_http_is_upgrade(parser).boolValue }
    /// The body's announced length, if it has one (not chunked).
    var contentLength: UInt64? {
        compose_http_has_content_length(parser) != 0 && compose_http_is_chunked(parser) == 0 ? parser.pointee.content_length : nil
    }
    /// Whether a body follows the head (a length above zero, or chunked).
    var hasBody: Bool {
        compose_http_is_chunked(parser) != 0 || (contentLength ?? 0) > 0
    }

    /// The request target as received.
    var targetBytes: [UInt8] { head.target }

    /// Calls `body` with each header's name and value.
    func forEachHeader(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) -> Void) {
        let head = self.head
        for field in head.fields {
            body(head.bytes[field.name..<field.value], head.bytes[field.value..<field.end])
        }
    }

    // MARK: Callbacks (inside execute only)

    private func messageBegan() -> Int32 {
        head.clear()
        bodyBytes = 0
        isInHead = true
        isInMessage = true
        return 0
    }

    private func url(_ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard head.appendTarget(at, length, limit: maximumTargetLength) else {
            failure = .targetTooLong
            return 1
        }
        return 0
    }

    private func headerField(_ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        if let failure = head.appendName(at, length, maximumCount: maximumHeaderCount, maximumSize: maximumHeaderSize) {
            self.failure = failure
            return 1
        }
        return 0
    }

    private func headerValue(_ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        guard head.appendValue(at, length, maximumSize: maximumHeaderSize) else {
            failure = .headersTooLarge
            return 1
        }
        return 0
    }

    private func headersComplete() -> Int32 {
        isInHead = false
        if let length = contentLength, length > UInt64(maximumBodySize) {
            failure = .bodyTooLarge
            return -1
        }
        event = .head
        http_parser_pause(parser, 1)
        return 0
    }

    private func body(_ at: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
        bodyBytes += length
        guard bodyBytes <= maximumBodySize else {
            failure = .bodyTooLarge
            return 1
        }
        guard let at, let base else { return 0 }
        event = .body(offset: UnsafeRawPointer(at) - base, count: length)
        http_parser_pause(parser, 1)
        return 0
    }

    private func messageComplete() -> Int32 {
        isInMessage = false
        isInHead = false
        event = .end
        http_parser_pause(parser, 1)
        return 0
    }
}

/// A request's head as the callbacks see it: the target, and every header
/// name and value one after another in `bytes`, with `fields` saying where.
private struct Head {
    var target: [UInt8] = []
    var bytes: [UInt8] = []
    /// (name start, value start, value end) in `bytes`.
    var fields: [(name: Int, value: Int, end: Int)] = []
    /// Whether the last piece was part of a value.
    var inValue = false

    mutating func clear() {
        target.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        inValue = false
    }

    /// Appends to the target; `false` past `limit`.
    mutating func appendTarget(_ at: UnsafePointer<CChar>?, _ length: Int, limit: Int) -> Bool {
        guard target.count + length <= limit else { return false }
        Self.append(at, length, to: &target)
        return true
    }

    /// Appends (a piece of) a header's name: a new field after a value.
    mutating func appendName(_ at: UnsafePointer<CChar>?, _ length: Int, maximumCount: Int, maximumSize: Int) -> HTTPRequestParser.Failure? {
        if inValue || fields.isEmpty {
            guard fields.count < maximumCount else { return .tooManyHeaders }
            inValue = false
            fields.append((bytes.count, bytes.count, bytes.count))
        }
        guard bytes.count + length <= maximumSize else { return .headersTooLarge }
        Self.append(at, length, to: &bytes)
        let last = fields.count - 1
        fields[last].value = bytes.count
        fields[last].end = bytes.count
        return nil
    }

    /// Appends (a piece of) a header's value; `false` past `maximumSize`
    /// (or with no name before it).
    mutating func appendValue(_ at: UnsafePointer<CChar>?, _ length: Int, maximumSize: Int) -> Bool {
        inValue = true
        guard bytes.count + length <= maximumSize, !fields.isEmpty else { return false }
        Self.append(at, length, to: &bytes)
        fields[fields.count - 1].end = bytes.count
        return true
    }

    private static func append(_ at: UnsafePointer<CChar>?, _ length: Int, to array: inout [UInt8]) {
        guard let at, length > 0 else { return }
        array.append(contentsOf: UnsafeRawBufferPointer(start: at, count: length))
    }
}

extension Int32 {
    fileprivate var boolValue: Bool { self != 0 }
}
