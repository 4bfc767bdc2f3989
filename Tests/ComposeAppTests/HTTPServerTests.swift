@_spi(Testing) import ComposeApp
import ComposeHTTP
import Foundation
import Testing

/// The HTTP server over real sockets on 127.0.0.1, with curl and Python's
/// http.client as peers, and raw sockets for pipelining.
@MainActor
@Suite(.serialized, .liveLoop) struct HTTPServerTests {
    private func start(limits: HTTPServer.Limits = HTTPServer.Limits()) throws -> (ComponentTree, HTTPServer, HTTPLog) {
        let log = HTTPLog()
        let tree = ComponentTree(HTTPTestAPI(limits: limits, log: log))
        tree.activate()
        let api = try #require(tree.root.value(as: HTTPTestAPI.self))
        #expect(api.server.isListening)
        return (tree, api.server, log)
    }

    @Test func curlReusesOneConnectionForSeveralURLs() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let base = "http://127.0.0.1:\(server.port)"
        let (out, err) = try runPeer("/usr/bin/curl", ["-sv", "\(base)/hello/ada", "\(base)/hello/grace%20hopper", "\(base)/files/a/b%2Fc.txt"])
        #expect(out.contains("hello ada\nhello grace hopper\na/b/c.txt"), "\(out)")
        #expect(err.contains("Re-using existing connection"), "\(err)")
        #expect(err.components(separatedBy: "Connected to").count == 2, "one connection: \(err)")
    }

    @Test func unknownPathsAre404AndOtherMethods405WithAllow() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let base = "http://127.0.0.1:\(server.port)"
        let (missing, _) = try runPeer("/usr/bin/curl", ["-si", "\(base)/nowhere"])
        #expect(missing.hasPrefix("HTTP/1.1 404 Not Found"), "\(missing)")
        let (wrong, _) = try runPeer("/usr/bin/curl", ["-si", "-X", "DELETE", "\(base)/hello/ada"])
        #expect(wrong.hasPrefix("HTTP/1.1 405 Method Not Allowed"), "\(wrong)")
        #expect(wrong.contains("Allow: GET, HEAD"), "\(wrong)")
    }

    @Test func pythonsHTTPClientKeepsAliveAcrossMethodsBodiesAndHEAD() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let script = """
        import http.client, sys
        c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
        def show(r):
            body = r.read()
            print(r.status, r.getheader("Content-Length"), r.getheader("Transfer-Encoding"), repr(body))
        c.request("GET", "/hello/py"); show(c.getresponse())
        sock = c.sock
        c.request("POST", "/echo", body=b"x" * 5000); show(c.getresponse())
        c.request("POST", "/echo", body=iter([b"abc", b"defg"]), encode_chunked=True, headers={"Transfer-Encoding": "chunked"}); show(c.getresponse())
        c.request("HEAD", "/hello/py"); show(c.getresponse())
        c.request("GET", "/stream"); show(c.getresponse())
        c.request("GET", "/missing"); show(c.getresponse())
        print("same socket", c.sock is sock)
        """
        let (out, err) = try runPeer("/usr/bin/python3", ["-c", script, "\(server.port)"])
        let lines = out.split(separator: "\n").map(String.init)
        #expect(lines == [
            "200 9 None b'hello py\\n'",
            "200 5000 None b'\(String(repeating: "x", count: 5000))'",
            "200 7 None b'abcdefg'",
            "200 9 None b''",
            "200 None chunked b'one\\ntwo\\n'",
            "404 14 None b'404 Not Found\\n'",
            "same socket True",
        ], "\(out)\(err)")
        #expect(log.bodies.map(\.count) == [5000, 7])
    }

    @Test func pipelinedRequestsAreAnsweredInRequestOrder() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /later/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/b HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/c HTTP/1.1\r\nHost: x\r\n\r\n")
        // All three handed out at once; the two ready answers wait for the first.
        #expect(LoopDriver.run(until: { log.paths.count == 3 }))
        #expect(log.paths == ["/later/1", "/hello/b", "/hello/c"])
        #expect(client.probe.received.isEmpty)
        log.kept.first?.respond(.ok, text: "first\n")
        log.kept = []
        #expect(LoopDriver.run(until: { client.responseCount == 3 }))
        let text = client.text
        let first = try #require(text.range(of: "first\n"))
        let second = try #require(text.range(of: "hello b\n"))
        let third = try #require(text.range(of: "hello c\n"))
        #expect(first.upperBound <= second.lowerBound && second.upperBound <= third.lowerBound, "\(text)")
        #expect(!client.isClosed)
    }

    @Test func anAnswerMayComeLaterAndAStreamedOneIsChunked() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /later/2 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(LoopDriver.run(until: { log.kept.count == 1 }))
        let exchange = try #require(log.kept.first)
        exchange.writeHead(.ok)
        exchange.write("part")
        #expect(LoopDriver.run(until: { client.text.contains("4\r\npart\r\n") }))
        #expect(client.text.contains("Transfer-Encoding: chunked\r\n"))
        exchange.end()
        #expect(LoopDriver.run(until: { client.text.hasSuffix("0\r\n\r\n") }))
        log.kept = []
    }

    @Test func http10GetsNoChunksAndKeepAliveOnlyWhenItAsks() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let plain = RawHTTPClient(port: server.port)
        defer { plain.close() }
        plain.send("GET /stream HTTP/1.0\r\n\r\n")
        #expect(LoopDriver.run(until: { plain.isClosed }))
        #expect(!plain.text.contains("chunked"), "\(plain.text)")
        #expect(plain.text.hasSuffix("\r\n\r\none\ntwo\n"), "\(plain.text)")
        #expect(plain.text.contains("Connection: close\r\n"))

        let keeping = RawHTTPClient(port: server.port)
        defer { keeping.close() }
        keeping.send("GET /hello/a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(LoopDriver.run(until: { keeping.text.hasSuffix("hello a\n") }))
        #expect(keeping.text.contains("Connection: keep-alive\r\n"))
        keeping.send("GET /hello/b HTTP/1.0\r\n\r\n")
        #expect(LoopDriver.run(until: { keeping.isClosed }))
        #expect(keeping.text.hasSuffix("hello b\n"))
    }

    @Test func connectionCloseEndsTheConnectionAfterTheAnswer() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        // The request after the closing one is never handed out.
        client.send("GET /hello/a HTTP/1.1\r\nConnection: close\r\n\r\nGET /hello/b HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(client.responseCount == 1)
        #expect(client.text.contains("Connection: close\r\n"))
        #expect(log.paths == ["/hello/a"])
    }

    @Test func headIsServedByGetWithoutTheBody() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("HEAD /hello/ada HTTP/1.1\r\nHost: x\r\n\r\nGET /hello/b HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.text.hasSuffix("hello b\n") }))
        #expect(client.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(client.text.contains("Content-Length: 10\r\n"))
        #expect(!client.text.contains("hello ada"))
        #expect(client.responseCount == 2)
    }

    @Test func expectContinueGets100WhenTheBodyIsAskedFor() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(LoopDriver.run(until: { client.text == "HTTP/1.1 100 Continue\r\n\r\n" }), "\(client.text)")
        client.send("hello")
        #expect(LoopDriver.run(until: { client.text.hasSuffix("hello") }))
        #expect(client.responseCount == 2)
        #expect(!client.isClosed)
        // curl does the same.
        let (_, err) = try runPeer("/usr/bin/curl", ["-sv", "-H", "Expect: 100-continue", "--data-binary", "abc", "http://127.0.0.1:\(server.port)/echo"])
        #expect(err.contains("HTTP/1.1 100 Continue"), "\(err)")
    }

    @Test func aStreamedBodyPausedByTheAppPausesItsClient() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("POST /upload HTTP/1.1\r\nContent-Length: 300000\r\n\r\n" + String(repeating: "u", count: 1000))
        #expect(LoopDriver.run(until: { log.paused.count == 1 }))
        // Paused: the rest of the body is not read meanwhile.
        client.send(String(repeating: "v", count: 299_000))
        #expect(!LoopDriver.run(until: { log.pieces > 1 }, timeout: .milliseconds(200)))
        log.paused.first?.resumeBody()
        #expect(LoopDriver.run(until: { client.text.hasSuffix("300000 bytes\n") }), "\(client.text)")
        #expect(log.pieces > 1)
        log.paused = []
    }

    @Test func anExchangeReleasedUnansweredGets500AndADiagnostic() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        var diagnostics: [Diagnostic] = []
        tree.context.diagnostics += { diagnostics.append($0) }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /drop HTTP/1.1\r\n\r\nGET /twice HTTP/1.1\r\n\r\nGET /hello/x HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.responseCount == 3 }))
        #expect(client.text.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(client.text.contains("first") && !client.text.contains("second"))
        #expect(client.text.hasSuffix("hello x\n"))
        #expect(diagnostics.map(\.code) == [.httpExchangeUnanswered, .httpAlreadyAnswered])
    }

    @Test func aRouteLivesAsLongAsItsObservation() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let admin = DynamicComponent<AdminRoutes>()
        let host = ComponentTree(admin)
        host.activate()
        defer { host.destroy() }
        admin.create { AdminRoutes(router: server.router) }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("GET /admin HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.text.hasSuffix("admin\n") }))
        let routes = server.routeCount
        admin.destroy()
        #expect(server.routeCount == routes - 1)
        client.send("GET /admin HTTP/1.1\r\n\r\n")
        #expect(LoopDriver.run(until: { client.responseCount == 2 }))
        #expect(client.text.contains("HTTP/1.1 404 Not Found"))
    }
}

/// Routes of a child component, on the router of a server handed to it.
struct AdminRoutes: Component {
    let router: HTTPRouter
    var observers: Void {
        router.route(.get, "/admin") += { exchange in exchange.respond(.ok, text: "admin\n") }
    }
}
