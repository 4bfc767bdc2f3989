@_spi(Testing) import ComposeApp
import ComposeHTTP
import Foundation
import Testing

/// Every limit of ``HTTPServer/Limits`` on real sockets: what a hostile or
/// broken client gets, and that the connection closes.
@MainActor
@Suite(.serialized, .liveLoop) struct HTTPLimitsTests {
    private func start(_ configure: (inout HTTPServer.Limits) -> Void = { _ in }) throws -> (ComponentTree, HTTPServer, HTTPLog) {
        var limits = HTTPServer.Limits()
        configure(&limits)
        let log = HTTPLog()
        let tree = ComponentTree(HTTPTestAPI(limits: limits, log: log))
        tree.activate()
        let api = try #require(tree.root.value(as: HTTPTestAPI.self))
        return (tree, api.server, log)
    }

    /// Sends `request`, waits for the connection to close; what came back.
    private func answer(to request: String, port: UInt16) -> String {
        let client = RawHTTPClient(port: port)
        defer { client.close() }
        client.send(request)
        #expect(LoopDriver.run(until: { client.isClosed }), "not closed: \(client.text)")
        return client.text
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let limits = HTTPServer.Limits()
        #expect(limits.maximumRequestTargetLength == 8192)
        #expect(limits.maximumHeaderSize == 16384)
        #expect(limits.maximumHeaderCount == 100)
        #expect(limits.maximumBodySize == 1 << 20)
        #expect(limits.headerReadTimeout == .seconds(10))
        #expect(limits.bodyIdleTimeout == .seconds(30))
        #expect(limits.keepAliveTimeout == .seconds(5))
        #expect(limits.maximumPipelinedRequests == 16)
    }

    @Test func aTooLongTargetIs414() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let long = "/hello/" + String(repeating: "a", count: 9000)
        let text = answer(to: "GET \(long) HTTP/1.1\r\nHost: x\r\n\r\n", port: server.port)
        #expect(text.hasPrefix("HTTP/1.1 414 URI Too Long\r\n"), "\(text)")
        #expect(text.contains("Connection: close\r\n"))
        #expect(log.paths.isEmpty)
    }

    @Test func tooLargeHeadersAndTooManyHeadersAre431() throws {
        let (tree, server, _) = try start { $0.maximumHeaderCount = 10 }
        defer { tree.destroy(); LoopDriver.settle() }
        let big = "GET /hello/a HTTP/1.1\r\nX-Big: \(String(repeating: "b", count: 17000))\r\n\r\n"
        #expect(answer(to: big, port: server.port).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        let many = "GET /hello/a HTTP/1.1\r\n" + (1...11).map { "X-H\($0): v\r\n" }.joined() + "\r\n"
        #expect(answer(to: many, port: server.port).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"))
        // Ten are fine.
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /hello/a HTTP/1.1\r\n" + (1...10).map { "X-H\($0): v\r\n" }.joined() + "\r\n")
        #expect(LoopDriver.run(until: { client.text.hasSuffix("hello a\n") }))
    }

    @Test func aBodyPastTheLimitIs413WhetherAnnouncedOrChunked() throws {
        let (tree, server, log) = try start { $0.maximumBodySize = 1000 }
        defer { tree.destroy(); LoopDriver.settle() }
        let announced = answer(to: "POST /echo HTTP/1.1\r\nContent-Length: 1001\r\n\r\n", port: server.port)
        #expect(announced.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(announced)")
        #expect(log.paths.isEmpty)

        let chunk = String(repeating: "c", count: 600)
        let chunked = answer(to: "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n", port: server.port)
        #expect(chunked.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(chunked)")
        // collectBody(upTo:) asks for less.
        let small = answer(to: "POST /small HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world", port: server.port)
        #expect(small.hasPrefix("HTTP/1.1 413 Content Too Large\r\n"), "\(small)")
    }

    @Test func aMalformedRequestIs400AndCloses() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let text = answer(to: "GET /hello/a HTTP/1.1\r\nBad Header\r\n\r\n", port: server.port)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
        #expect(answer(to: "NOT HTTP AT ALL\r\n\r\n", port: server.port).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
    }

    @Test func aSlowHeadIs408AfterTheHeaderReadTimeout() throws {
        let (tree, server, _) = try start { $0.headerReadTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        let started = ContinuousClock.now
        client.send("GET /hello/a HTTP/1.1\r\nX-Slow: ")
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        #expect(client.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(client.text)")
    }

    @Test func aSilentNewConnectionClosesAfterTheHeaderReadTimeout() throws {
        let (tree, server, _) = try start { $0.headerReadTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(client.text.isEmpty)
        #expect(server.connectionCount == 0)
    }

    @Test func anIdleKeepAliveConnectionClosesAfterTheKeepAliveTimeout() throws {
        let (tree, server, _) = try start { $0.keepAliveTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /hello/a HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.text.hasSuffix("hello a\n") }))
        let answered = ContinuousClock.now
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(ContinuousClock.now - answered >= .milliseconds(250))
        #expect(client.responseCount == 1)
    }

    @Test func aBodyThatStopsIs408AfterTheBodyIdleTimeout() throws {
        let (tree, server, _) = try start { $0.bodyIdleTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(client.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(client.text)")
    }

    @Test func pipelinedRequestsPastTheCapWaitUntilAnswersLeave() throws {
        let (tree, server, log) = try start { $0.maximumPipelinedRequests = 4 }
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send((1...10).map { "GET /later/\($0) HTTP/1.1\r\n\r\n" }.joined())
        #expect(LoopDriver.run(until: { log.kept.count == 4 }))
        // Nothing more is handed out while four wait.
        #expect(!LoopDriver.run(until: { log.kept.count > 4 }, timeout: .milliseconds(200)))
        var answered = 0
        while answered < 10 {
            #expect(LoopDriver.run(until: { log.kept.count > answered }))
            #expect(log.kept.count - answered <= 4)
            log.kept[answered].respond(.ok, text: "answer \(answered + 1)\n")
            answered += 1
        }
        #expect(LoopDriver.run(until: { client.responseCount == 10 }))
        #expect(client.text.hasSuffix("answer 10\n"))
        #expect(log.paths == (1...10).map { "/later/\($0)" })
        log.kept = []
    }

    @Test func theDrainFinishesInFlightRequestsWithConnectionCloseAndClosesIdleOnes() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let idle = RawHTTPClient(port: server.port)
        defer { idle.close() }
        idle.send("GET /hello/a HTTP/1.1\r\n\r\n")
        let busy = RawHTTPClient(port: server.port)
        defer { busy.close() }
        busy.send("GET /later/1 HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { idle.text.hasSuffix("hello a\n") && log.kept.count == 1 }))

        let shutdown = tree.context.shutdown
        shutdown.didStart()
        shutdown.request()
        #expect(!server.isListening)
        #expect(LoopDriver.run(until: { idle.isClosed }))
        #expect(!busy.isClosed)
        log.kept.first?.respond(.ok, text: "finished\n")
        log.kept = []
        #expect(LoopDriver.run(until: { busy.isClosed }))
        #expect(busy.text.contains("Connection: close\r\n"))
        #expect(busy.text.hasSuffix("finished\n"))
    }

    /// The proof of `HTTPRequestParser`'s unretained `http_parser.data`
    /// (docs/unsafe.md): a handler that closes the whole server in the
    /// middle of a chunk of pipelined requests, and one that destroys the
    /// server's tree (so the server, the connection and its parser lose
    /// their last owner while the parse that called the handler runs).
    /// Under AddressSanitizer a parser freed before the connection stops
    /// calling into it is a heap-use-after-free.
    @Test func aHandlerThatClosesTheServerMidPipelineFreesNothingInUse() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /hello/a HTTP/1.1\r\n\r\nGET /close-server HTTP/1.1\r\n\r\nGET /hello/c HTTP/1.1\r\n\r\nGET /hello/d HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(log.paths == ["/hello/a", "/close-server"])
        #expect(client.text.hasSuffix("closing\n"), "\(client.text)")
        #expect(!server.isListening)
        #expect(LoopDriver.run(until: { server.connectionCount == 0 }))
    }

    @Test func aHandlerThatDestroysTheServersTreeMidPipelineFreesNothingInUse() throws {
        var limits = HTTPServer.Limits()
        limits.maximumPipelinedRequests = 64
        let log = HTTPLog()
        var tree: ComponentTree? = ComponentTree(HTTPTestAPI(limits: limits, log: log))
        tree?.activate()
        weak let server = try #require(tree?.root.value(as: HTTPTestAPI.self)).server
        let port = try #require(server?.port)
        log.destroy = { tree?.destroy(); tree = nil }
        defer { LoopDriver.settle() }
        let client = RawHTTPClient(port: port)
        defer { client.close() }
        client.send("GET /hello/a HTTP/1.1\r\n\r\nGET /destroy HTTP/1.1\r\n\r\n" + String(repeating: "GET /hello/c HTTP/1.1\r\n\r\n", count: 20))
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(log.paths == ["/hello/a", "/destroy"])
        #expect(client.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(tree == nil)
        #expect(LoopDriver.run(until: { server == nil }))
    }
}
