@_spi(Testing) import ComposeApp
import ComposeHTTP
import Foundation
import Testing

/// A server with the health endpoints and a route whose answer the test
/// gives (to hold a connection open across a drain).
struct HTTPHealthAPI: Component {
    let server = HTTPServer(host: "127.0.0.1", port: 0)
    let log: HTTPLog
    let maximumLag: Duration

    var observers: Void {
        server.serveHealth(maximumLag: maximumLag)
        server.route(.get, "/later/:id") += { exchange in
            log.paths.append(exchange.path)
            log.kept.append(exchange)
        }
        server.route(.get, "/mark/:id") += { exchange in
            log.paths.append(exchange.path)
            exchange.respond(.ok, text: "mark\n")
        }
    }
}

/// `HTTPServer.serveHealth()` over real sockets: `/healthz` follows the
/// loop's lag, `/readyz` the app's phase, through a drain.
@MainActor
@Suite(.serialized, .liveLoop) struct HTTPHealthTests {
    private func start(maximumLag: Duration = .milliseconds(500)) throws -> (ComponentTree, HTTPServer, HTTPLog) {
        let log = HTTPLog()
        let tree = ComponentTree(HTTPHealthAPI(log: log, maximumLag: maximumLag))
        tree.activate()
        let api = try #require(tree.root.value(as: HTTPHealthAPI.self))
        #expect(api.server.isListening)
        return (tree, api.server, log)
    }

    @Test func readyzIs503WhileStartingAnd200WhileRunningAndHealthzIs200() throws {
        let (tree, server, _) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let base = "http://127.0.0.1:\(server.port)"
        let (starting, _) = try runPeer("/usr/bin/curl", ["-si", "\(base)/readyz"])
        #expect(starting.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(starting)")
        #expect(starting.hasSuffix("\r\n\r\nstarting"), "\(starting)")

        tree.context.shutdown.didStart()
        let (out, _) = try runPeer("/usr/bin/curl", ["-s", "-w", " %{http_code}\n", "\(base)/readyz", "\(base)/healthz"])
        #expect(out == "ready\n 200\nok\n 200", "\(out)")
        let (head, _) = try runPeer("/usr/bin/curl", ["-sI", "\(base)/healthz"])
        #expect(head.hasPrefix("HTTP/1.1 200 OK"), "\(head)")
        #expect(head.contains("Cache-Control: no-store"), "\(head)")
        let (post, _) = try runPeer("/usr/bin/curl", ["-si", "-X", "POST", "\(base)/healthz"])
        #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed"), "\(post)")
    }

    @Test func readyzTurns503DuringTheDrainOnAConnectionStillOpen() throws {
        let (tree, server, log) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let shutdown = tree.context.shutdown
        shutdown.didStart()
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        // A request in flight, a readiness probe before the drain (ready),
        // and the head of one more begun: the connection stays open
        // through the drain while its parser is in that head.
        client.send("GET /later/1 HTTP/1.1\r\n\r\nGET /readyz HTTP/1.1\r\n\r\nGET /mark/1 HTTP/1.1\r\n\r\nGET /readyz HTTP/1.1\r\n")
        #expect(LoopDriver.run(until: { log.paths == ["/later/1", "/mark/1"] }))

        shutdown.request()
        #expect(shutdown.phase == .draining)
        #expect(!server.isListening)
        log.kept.first?.respond(.ok, text: "finished\n")
        log.kept = []
        #expect(LoopDriver.run(until: { client.text.hasSuffix("mark\n") }), "\(client.text)")
        #expect(!client.isClosed)

        // The probe's head completes during the drain: 503, and the
        // connection closes after it.
        client.send("\r\n")
        #expect(LoopDriver.run(until: { client.isClosed }))
        let answers = client.text.components(separatedBy: "HTTP/1.1 ").dropFirst()
        let statuses = answers.map { $0.prefix(3) }
        #expect(statuses == ["200", "200", "200", "503"], "\(client.text)")
        let bodies = answers.map { $0.components(separatedBy: "\r\n\r\n").last ?? "" }
        #expect(bodies == ["finished\n", "ready\n", "mark\n", "draining\n"], "\(client.text)")
        #expect(answers.last?.contains("Connection: close\r\n") == true, "\(client.text)")
    }

    /// Real time on purpose, as in `LoopHealthTests`: the subject is the
    /// lag of a loop that could not run.
    @Test func healthzTurns503OnceTheLoopLagsPastTheThreshold() throws {
        let (tree, server, _) = try start(maximumLag: .milliseconds(100))
        defer { tree.destroy(); LoopDriver.settle() }
        let context = tree.context
        try context.startLoopHealth()
        #expect(LoopDriver.run(until: { (context.loopHealth?.samples ?? 0) >= 2 }))
        let base = "http://127.0.0.1:\(server.port)"
        let quiet = try #require(context.loopHealth)
        if quiet.lagP99 <= .milliseconds(100) {
            let (out, _) = try runPeer("/usr/bin/curl", ["-s", "-w", " %{http_code}", "\(base)/healthz"])
            #expect(out == "ok\n 200", "\(out) \(quiet)")
        }

        var blocked = false
        let blocker = LoopTimer(after: .milliseconds(1), startsWithComponent: false)
        blocker += {
            usleep(300_000)   // real time: the blocked loop is the subject
            blocked = true
        }
        blocker.start()
        let samplesBefore = quiet.samples
        #expect(LoopDriver.run(until: { blocked && (context.loopHealth?.samples ?? 0) >= samplesBefore + 2 }))
        let health = try #require(context.loopHealth)
        #expect(health.lagP99 > .milliseconds(100), "\(health)")

        let (out, _) = try runPeer("/usr/bin/curl", ["-s", "-w", " %{http_code}", "\(base)/healthz"])
        #expect(out.hasPrefix("loop lag p99 "), "\(out)")
        #expect(out.hasSuffix(" ms over 100 ms\n 503"), "\(out)")
    }
}
