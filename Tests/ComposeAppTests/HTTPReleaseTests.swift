@_spi(Testing) import ComposeApp
import ComposeHTTP
import Testing

/// A weak reference to an exchange, to see it released.
@MainActor
final class WeakExchange {
    weak var exchange: HTTPExchange?
    init(_ exchange: HTTPExchange) { self.exchange = exchange }
}

/// Routes whose handlers observe their exchange's emitters, as apps do.
struct ObservingHTTPAPI: Component {
    let server: HTTPServer
    let seen: SeenExchanges

    init(limits: HTTPServer.Limits = HTTPServer.Limits(), seen: SeenExchanges) {
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits)
        self.seen = seen
    }

    var observers: Void {
        server.route(.post, "/echo") += { exchange in
            seen.all.append(WeakExchange(exchange))
            exchange.collectBody(upTo: 1 << 20) += { body in exchange.respond(.ok, body: body) }
        }
        server.route(.post, "/count") += { exchange in
            seen.all.append(WeakExchange(exchange))
            var total = 0
            exchange.body += { piece in total += piece.count }
            exchange.bodyDidEnd += { exchange.respond(.ok, text: "\(total)") }
        }
    }
}

@MainActor
final class SeenExchanges {
    var all: [WeakExchange] = []
    var released: Bool { all.allSatisfy { $0.exchange == nil } }
}

/// An exchange whose handler observed its body (or its writability) is
/// released once it is done: the observations, kept by the route's
/// component, are cancelled when their emitters have nothing more to
/// send. (They were not: every POST echo stayed in memory with its
/// exchange, 2.4 KB each, as long as the server's component.)
@MainActor
@Suite(.serialized, .liveLoop) struct HTTPReleaseTests {
    private func start(limits: HTTPServer.Limits = HTTPServer.Limits()) throws -> (ComponentTree, HTTPServer, SeenExchanges) {
        let seen = SeenExchanges()
        let tree = ComponentTree(ObservingHTTPAPI(limits: limits, seen: seen))
        tree.activate()
        let api = try #require(tree.root.value(as: ObservingHTTPAPI.self))
        #expect(api.server.isListening)
        return (tree, api.server, seen)
    }

    @Test func exchangesWhoseBodiesWereCollectedOrStreamedAreReleasedOnceAnswered() throws {
        let (tree, server, seen) = try start()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"
            + "POST /count HTTP/1.1\r\nContent-Length: 5\r\n\r\nfives"
            + "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n")
        #expect(LoopDriver.run(until: { client.responseCount == 3 }), "\(client.text)")
        #expect(client.text.contains("abc") && client.text.contains("\r\n\r\n5") && client.text.hasSuffix("xy"))
        #expect(seen.all.count == 3)
        #expect(LoopDriver.run(until: { seen.released }), "exchanges still alive: \(seen.all.filter { $0.exchange != nil }.count)")
    }

    @Test func anExchangeWhoseBodyStoppedIsReleasedAfterThe408() throws {
        var limits = HTTPServer.Limits()
        limits.bodyIdleTimeout = .milliseconds(100)
        let (tree, server, seen) = try start(limits: limits)
        defer { tree.destroy(); LoopDriver.settle() }
        let client = RawHTTPClient(port: server.port)
        defer { client.close() }
        client.send("POST /count HTTP/1.1\r\nContent-Length: 1000\r\n\r\nonly a few bytes")
        #expect(LoopDriver.run(until: { client.isClosed }))
        #expect(client.text.hasPrefix("HTTP/1.1 408 "), "\(client.text)")
        #expect(seen.all.count == 1)
        #expect(LoopDriver.run(until: { seen.released }))
    }
}
