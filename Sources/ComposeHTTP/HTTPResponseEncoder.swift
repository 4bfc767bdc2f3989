#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What every connection of a server shares: the routes, the limits, the
/// app's context, and the `Date` header of the current second.
@MainActor
final class HTTPServerShared {
    let routes = HTTPRoutes()
    var limits: HTTPServer.Limits
    /// The app the server runs in (its scheduler, its diagnostics).
    weak var context: AppContext?
    private var scratch: [UInt8] = []
    private var dateSecond = 0
    private var dateBytes: [UInt8] = []

    init(limits: HTTPServer.Limits) {
        self.limits = limits
    }

    var scheduler: (any Scheduler)? { (context ?? AppContext.current)?.scheduler }

    func report(_ diagnostic: Diagnostic) {
        if let context { context.report(diagnostic) } else { Diagnostics.report(diagnostic) }
    }

    /// The buffer answers are encoded into (empty, its capacity kept).
    func takeScratch() -> [UInt8] {
        var buffer: [UInt8] = []
        swap(&buffer, &scratch)
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Gives the buffer back for the next answer (up to 64 KiB of capacity).
    func giveBack(_ buffer: [UInt8]) {
        if buffer.capacity <= 64 << 10 { scratch = buffer }
    }

    /// `Date: <IMF-fixdate>\r\n` for now, made once a second.
    var dateLine: [UInt8] {
        var now = time(nil)
        if now != dateSecond || dateBytes.isEmpty {
            dateSecond = now
            var parts = tm()
            gmtime_r(&now, &parts)
            var text = [CChar](repeating: 0, count: 64)
            let count = strftime(&text, text.count, "Date: %a, %d %b %Y %H:%M:%S GMT\r\n", &parts)
            dateBytes = text[0..<count].map { UInt8(bitPattern: $0) }
        }
        return dateBytes
    }
}

/// Encodes responses' heads: the status line, the app's fields, and the
/// fields the server adds (`Date`, the body's framing, `Connection`).
enum HTTPResponseEncoder {
    /// How the body of a response is framed on the wire.
    enum Framing: Equatable {
        /// `Content-Length` (given by the app or counted).
        case length
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// No body at all (HEAD, 1xx, 204, 304).
        case none
        /// The body ends when the connection closes (HTTP/1.0, no length).
        case untilClose
    }

    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Whether a response of `status` may carry a body.
    static func allowsBody(_ status: HTTPResponse.Status) -> Bool {
        !(status.code < 200 || status.code == 204 || status.code == 304)
    }

    /// Appends the head to `buffer`.
    @MainActor
    static func encodeHead(
        status: HTTPResponse.Status,
        fields: HTTPFields,
        contentLength: Int?,
        framing: Framing,
        close: Bool,
        keepAliveHeader: Bool,
        date: [UInt8],
        into buffer: inout [UInt8]
    ) {
        // Literals through StaticString and text through withUTF8: the
        // generic append of a String.UTF8View costs several times more per
        // call (profile_http.sh, docs/protocols.md "The hot path").
        if status.code == 200, status.reasonPhrase == "OK" {
            // Most answers: one append instead of five (about 300
            // instructions a response, profile_http.sh).
            appendStatic("HTTP/1.1 200 OK\r\n", to: &buffer)
        } else {
            appendStatic("HTTP/1.1 ", to: &buffer)
            appendDecimal(status.code, to: &buffer)
            buffer.append(UInt8(ascii: " "))
            appendText(status.reasonPhrase, to: &buffer)
            appendStatic("\r\n", to: &buffer)
        }
        var hasDate = false
        for field in fields {
            let name = field.name
            if name == .connection || name == .transferEncoding { continue }
            if name == .contentLength, framing != .length, framing != .none { continue }
            if name == .date { hasDate = true }
            appendText(name.rawName, to: &buffer)
            appendStatic(": ", to: &buffer)
            appendText(field.value, to: &buffer)
            appendStatic("\r\n", to: &buffer)
        }
        if !hasDate { buffer.append(contentsOf: date) }
        switch framing {
        case .length, .none, .untilClose:
            if let contentLength {
                appendStatic("Content-Length: ", to: &buffer)
                appendDecimal(contentLength, to: &buffer)
                appendStatic("\r\n", to: &buffer)
            }
        case .chunked:
            appendStatic("Transfer-Encoding: chunked\r\n", to: &buffer)
        }
        if close {
            appendStatic("Connection: close\r\n", to: &buffer)
        } else if keepAliveHeader {
            appendStatic("Connection: keep-alive\r\n", to: &buffer)
        }
        appendStatic("\r\n", to: &buffer)
    }

    /// Appends a chunk of a chunked body (its size line, the bytes, CR LF).
    static func encodeChunk(_ bytes: UnsafeRawBufferPointer, into buffer: inout [UInt8]) {
        guard bytes.count > 0 else { return }
        appendHex(bytes.count, to: &buffer)
        buffer.append(contentsOf: "\r\n".utf8)
        buffer.append(contentsOf: bytes)
        buffer.append(contentsOf: "\r\n".utf8)
    }

    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// Appends a literal's bytes.
    static func appendStatic(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends `text`'s UTF-8 bytes.
    static func appendText(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Appends `value` (not negative) in decimal, without making a String.
    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        guard value > 0 else {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func appendHex(_ value: Int, to buffer: inout [UInt8]) {
        let hex = String(value, radix: 16)
        buffer.append(contentsOf: hex.utf8)
    }

    /// A whole response of the server's own (404, 405, 413, ...).
    @MainActor
    static func errorResponse(_ status: HTTPResponse.Status, extraFields: HTTPFields = [:], close: Bool, headOnly: Bool, keepAliveHeader: Bool, date: [UInt8]) -> [UInt8] {
        let body = Array("\(status.code) \(status.reasonPhrase)\n".utf8)
        var fields = extraFields
        fields[.contentType] = "text/plain; charset=utf-8"
        var buffer: [UInt8] = []
        buffer.reserveCapacity(200)
        encodeHead(status: status, fields: fields, contentLength: body.count, framing: .length, close: close, keepAliveHeader: keepAliveHeader, date: date, into: &buffer)
        if !headOnly { buffer.append(contentsOf: body) }
        return buffer
    }
}
