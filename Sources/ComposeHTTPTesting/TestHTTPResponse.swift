public import HTTPTypes

/// A response the app's `HTTPServer` sent to a test's request
/// (`TestApp.http(_:_:port:headers:body:within:)`), as a
/// client's parser read it.
///
/// ```swift
/// let response = try app.http(.get, "/hello/ada")
/// #expect(response.status == .ok)
/// #expect(response.headerFields[.contentType] == "text/plain; charset=utf-8")
/// #expect(response.text == "hello ada\n")
/// ```
public struct TestHTTPResponse: Sendable, Equatable, CustomStringConvertible {
    /// The status line and header fields.
    public var head: HTTPResponse
    /// The body, de-chunked (empty for a `HEAD` request's answer).
    public var body: [UInt8]
    /// The trailer fields of a chunked body, if it sent any.
    public var trailerFields: HTTPFields?

    /// The status.
    public var status: HTTPResponse.Status { head.status }
    /// The header fields.
    public var headerFields: HTTPFields { head.headerFields }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `200 OK, 10 bytes: "hello ada\n"`.
    public var description: String {
        let shown = text.count > 80 ? String(text.prefix(80)) + "..." : text
        return "\(status.code) \(status.reasonPhrase), \(body.count) bytes: \(String(reflecting: shown))"
    }
}
