import ComposeApp
import ComposeHTTP
import ComposeHTTPTesting
import ComposeTesting
import HTTPTypes
import Testing

/// `TestApp.http` and `TestHTTPClient`: requests over the simulated
/// network to the app's real HTTPServer, on the virtual clock.
@MainActor
@Suite struct TestAppHTTPTests {
    @Test func routesAnswerThroughTheRealParser() throws {
        let app = TestApp(root: ShopAPI())
        let hello = try app.http(.get, "/hello/ada")
        #expect(hello.status == .ok)
        #expect(hello.text == "hello ada\n")
        #expect(hello.headerFields[.contentLength] == "10")
        #expect(try app.http(.put, "/items/7", text: "lamp").status == .created)
        let item = try app.http(.get, "/items/7")
        #expect(item.text == "lamp")
        #expect(item.headerFields[.contentType] == "text/plain")
        #expect(try app.http(.post, "/echo", body: Array(repeating: 7, count: 3000)).body == Array(repeating: 7, count: 3000))
        let streamed = try app.http(.get, "/stream")
        #expect(streamed.text == "one\ntwo\n")
        #expect(streamed.headerFields[.transferEncoding] == "chunked")
        // HEAD: the GET route's head, no body.
        let head = try app.http(.head, "/hello/ada")
        #expect(head.status == .ok && head.body.isEmpty && head.headerFields[.contentLength] == "10")
    }
}
