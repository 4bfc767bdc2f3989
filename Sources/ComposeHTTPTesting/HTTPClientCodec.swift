internal import HTTPTypes
internal import NIOCore
internal import NIOEmbedded
internal import NIOHTTP1

/// SwiftNIO's HTTP/1 client codec (`HTTPRequestEncoder`,
/// `HTTPResponseDecoder` on llhttp) on an `EmbeddedChannel`: requests
/// encoded by it, responses parsed by it, no socket. The decoder learns
/// each request's method from the encoder (a `HEAD` answer has no body),
/// so answers are read in request order, as a pipelining client does.
/// A parser other than the server's (libhttp-parser): a bug in one is
/// not hidden by the same bug in the other.
@MainActor
final class HTTPClientCodec {
    private let channel = EmbeddedChannel()
    private var head: HTTPResponse?
    private var body: [UInt8] = []
    /// Responses complete and not yet taken, in order.
    private(set) var responses: [TestHTTPResponse] = []

    init() throws {
        try channel.pipeline.syncOperations.addHTTPClientHandlers()
    }

    /// The bytes of a request (Host: `localhost` unless `fields` give
    /// one; a `Content-Length` unless they frame the body).
    func encode(_ method: HTTPRequest.Method, _ target: String, fields: HTTPFields, body: [UInt8]) throws -> [UInt8] {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: field.name.rawName, value: field.value) }
        if !headers.contains(name: "host") { headers.add(name: "Host", value: "localhost") }
        let framed = headers.contains(name: "content-length") || headers.contains(name: "transfer-encoding")
        let bodyExpected = !body.isEmpty || [.post, .put, .patch].contains(method)
        if !framed, bodyExpected { headers.add(name: "Content-Length", value: String(body.count)) }
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: target, headers: headers)
        try channel.writeOutbound(HTTPClientRequestPart.head(head))
        if !body.isEmpty { try channel.writeOutbound(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body)))) }
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        return try takeOutbound()
    }

    /// Tells the decoder a request for `method` left by other means (raw
    /// bytes): its answer is read as that method's.
    func expectAnswer(to method: HTTPRequest.Method) throws {
        let head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: "/")
        try channel.writeOutbound(HTTPClientRequestPart.head(head))
        try channel.writeOutbound(HTTPClientRequestPart.end(nil))
        _ = try takeOutbound()
    }

    /// Parses `bytes` of the app's answer.
    func decode(_ bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
        try collect()
    }

    /// The app ended the connection: a body read until the end completes.
    func endOfInput() throws {
        channel.pipeline.fireChannelInactive()
        try channel.throwIfErrorCaught()
        try collect()
    }

    /// Takes the oldest complete response.
    func takeResponse() -> TestHTTPResponse? {
        responses.isEmpty ? nil : responses.removeFirst()
    }

    private func collect() throws {
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            switch part {
            case .head(let received):
                var fields = HTTPFields()
                for (name, value) in received.headers {
                    if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                }
                let status = HTTPResponse.Status(code: Int(received.status.code), reasonPhrase: received.status.reasonPhrase)
                head = HTTPResponse(status: status, headerFields: fields)
                body = []
            case .body(let buffer):
                body.append(contentsOf: buffer.readableBytesView)
            case .end(let trailers):
                guard let head else { continue }
                var trailerFields: HTTPFields?
                if let trailers {
                    var fields = HTTPFields()
                    for (name, value) in trailers {
                        if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
                    }
                    trailerFields = fields
                }
                responses.append(TestHTTPResponse(head: head, body: body, trailerFields: trailerFields))
                self.head = nil
                body = []
            }
        }
    }

    private func takeOutbound() throws -> [UInt8] {
        var bytes: [UInt8] = []
        while let data = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = data { bytes.append(contentsOf: buffer.readableBytesView) }
        }
        return bytes
    }
}
