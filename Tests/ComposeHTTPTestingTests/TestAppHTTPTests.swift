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

    @Test func unknownPathsAre404AndOtherMethods405() throws {
        let app = TestApp(root: ShopAPI())
        let missing = try app.http(.get, "/nowhere")
        #expect(missing.status == .notFound)
        let wrong = try app.http(.delete, "/hello/ada")
        #expect(wrong.status == .methodNotAllowed)
        #expect(wrong.headerFields[.allow] == "GET, HEAD")
        #expect(try app.http(.get, "/items/9").text == "no such item\n")
    }

    @Test func aHandlerAnsweringAfterATimerIsWaitedForOnTheVirtualClock() throws {
        let app = TestApp(root: ShopAPI())
        let start = app.now
        let slow = try app.http(.get, "/slow")
        #expect(slow.text == "done\n")
        #expect(app.now - start == .seconds(5))
        // Asked to answer sooner, it fails and says why.
        let error = try #require(throws: TestHTTPError.self) { try app.http(.get, "/slow", within: .seconds(2)) }
        #expect(error.reason == .noAnswer(waited: .seconds(2)))
        #expect(error.description.hasPrefix("GET /slow on port 8080: the app did not answer within 2.0 seconds"), "\(error)")
    }

    @Test func anAppThatNeverAnswersOrClosesFailsClearly() throws {
        let app = TestApp(root: ShopAPI())
        // Nothing scheduled will ever answer /never: the wait ends at once,
        // without moving the clock past what the app scheduled.
        let never = try #require(throws: TestHTTPError.self) { try app.http(.get, "/never") }
        #expect(never.reason == .noAnswer(waited: .seconds(60)))
        #expect(never.received.isEmpty)
        // A body over the server's limit: 413, and the app closes.
        var limits = HTTPServer.Limits()
        limits.maximumBodySize = 100
        let small = TestApp(root: ShopAPI(limits: limits))
        let client = try small.httpClient()
        let tooLarge = try client.request(.post, "/echo", body: Array(repeating: 1, count: 200))
        #expect(tooLarge.status == .contentTooLarge)
        #expect(tooLarge.headerFields[.connection] == "close")
        #expect(client.isClosedByApp)
        let closed = try #require(throws: TestHTTPError.self) { try client.request(.get, "/hello/a") }
        #expect(closed.reason == .closedByApp)
    }

    @Test func aRoutesOwnBodyLimitIs413Too() throws {
        let app = TestApp(root: ShopAPI())
        let answer = try app.http(.put, "/items/1", text: String(repeating: "x", count: 65))
        #expect(answer.status == .contentTooLarge)
    }

    @Test func theHeaderTimeoutIs408OnTheVirtualClock() throws {
        let app = TestApp(root: ShopAPI())
        let client = try app.httpClient()
        client.sendRaw("GET /hello/a HTTP/1.1\r\nHost: loc")   // never finished
        let start = app.now
        let answer = try client.response()
        #expect(answer.status == .requestTimeout)
        #expect(app.now - start == .seconds(10))
        #expect(client.isClosedByApp)
        // A client that sends nothing at all is closed at the same time,
        // without an answer.
        let silent = try app.httpClient()
        let quietStart = app.now
        let closed = try #require(throws: TestHTTPError.self) { try silent.response() }
        #expect(closed.reason == .closedByApp)
        #expect(closed.description == "no request on port 8080: the app closed the connection before a complete response; nothing received")
        #expect(app.now - quietStart == .seconds(10))
        #expect(silent.isClosedByApp)
    }

    @Test func severalRequestsShareOneConnectionAndPipelineInOrder() throws {
        let app = TestApp(root: ShopAPI())
        let client = try app.httpClient()
        #expect(try client.request(.get, "/hello/a").text == "hello a\n")
        #expect(try client.request(.put, "/items/2", text: "desk").status == .created)
        // Pipelined: the slow answer holds back the quick ones behind it.
        client.send(.get, "/slow")
        client.send(.get, "/hello/b")
        client.send(.head, "/items/2")
        client.send(.get, "/items/2")
        #expect(client.unansweredCount == 4)
        #expect(try client.response().text == "done\n")
        #expect(try client.response().text == "hello b\n")
        let head = try client.response()
        #expect(head.body.isEmpty && head.headerFields[.contentLength] == "4")
        #expect(try client.response().text == "desk")
        #expect(!client.isClosedByApp)
        #expect(app.root(as: ShopAPI.self)?.server.connectionCount == 1)
        client.close()
        #expect(app.root(as: ShopAPI.self)?.server.connectionCount == 0)
    }

    @Test func healthAndReadinessDuringTheDrain() throws {
        let app = TestApp(root: ShopAPI())
        #expect(try app.http(.get, "/healthz").text == "ok\n")
        #expect(try app.http(.get, "/readyz").text == "ready\n")
        let client = try app.httpClient()
        client.send(.get, "/slow")                  // in flight when the drain begins
        app.send(.terminate)
        // The listener is closed: new clients are refused.
        let refused = try #require(throws: TestHTTPError.self) { try app.http(.get, "/readyz", port: 8080) }
        #expect(refused.reason == .noServer)
        // The connection in flight is served, and reads that it drains.
        client.send(.get, "/readyz")
        #expect(try client.response().text == "done\n")
        let ready = try client.response()
        #expect(ready.status == .serviceUnavailable)
        #expect(ready.text == "draining\n")
        #expect(ready.headerFields[.connection] == "close")
        app.runUntilExit()
        #expect(app.exitStatus == 0)
    }

    @Test func thePortIsFoundOrNamed() throws {
        let none = TestApp(root: NoServer())
        let missing = try #require(throws: TestHTTPError.self) { try none.http(.get, "/") }
        #expect(missing.reason == .noServer)
        #expect(missing.description == "finding the app's HTTP server: no HTTP server of the app listens; nothing received")
        let two = TestApp(root: TwoServers())
        let several = try #require(throws: TestHTTPError.self) { try two.http(.get, "/hello/a") }
        #expect(several.reason == .severalServers(ports: [8080, 8081]))
        #expect(try two.http(.get, "/hello/a", port: 8081).text == "hello a\n")
    }
}

struct NoServer: PassiveComponent {}

struct TwoServers: Component {
    let first = ShopAPI(port: 8080)
    let second = ShopAPI(port: 8081)
    var observers: Void { None }
}
