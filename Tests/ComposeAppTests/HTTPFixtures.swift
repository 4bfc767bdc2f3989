@_spi(Testing) import ComposeApp
import ComposeHTTP
import Foundation
import Testing

/// What the HTTP test servers' handlers saw and kept.
@MainActor
final class HTTPLog {
    /// Exchanges kept to be answered by the test.
    var kept: [HTTPExchange] = []
    /// Paths handed out, in order.
    var paths: [String] = []
    var bodies: [[UInt8]] = []
    /// Pieces of streamed bodies received.
    var pieces = 0
    /// Uploads paused at their first piece (`/upload`).
    var paused: [HTTPExchange] = []
    /// What `/destroy` runs (the test destroys the server's tree).
    var destroy: (@MainActor () -> Void)?
}

/// A server with a route of each kind the tests need.
struct HTTPTestAPI: Component {
    let server: HTTPServer
    let log: HTTPLog

    init(limits: HTTPServer.Limits = HTTPServer.Limits(), log: HTTPLog) {
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits)
        self.log = log
    }

    var observers: Void {
        server.route(.get, "/hello/:name") += { exchange in
            log.paths.append(exchange.path)
            exchange.respond(.ok, text: "hello \(exchange.parameters["name"] ?? "")\n")
        }
        server.route(.post, "/echo") += { exchange in
            log.paths.append(exchange.path)
            exchange.collectBody(upTo: 1 << 20) += { body in
                log.bodies.append(body)
                exchange.respond(.ok, body: body)
            }
        }
        server.route(.post, "/small") += { exchange in
            exchange.collectBody(upTo: 10) += { body in exchange.respond(.ok, body: body) }
        }
        server.route(.get, "/later/:id") += { exchange in
            log.paths.append(exchange.path)
            log.kept.append(exchange)
        }
        server.route(.get, "/stream") += { exchange in
            exchange.writeHead(.ok, headers: [.contentType: "text/plain"])
            exchange.write("one\n")
            exchange.write("two\n")
            exchange.end()
        }
        server.route(.get, "/files/*") += { exchange in
            exchange.respond(.ok, text: exchange.parameters["*"] ?? "")
        }
        server.route(.post, "/upload") += { exchange in
            var total = 0
            exchange.body += { piece in
                total += piece.count
                log.pieces += 1
                if log.pieces == 1 {
                    exchange.pauseBody()
                    log.paused.append(exchange)
                }
            }
            exchange.bodyDidEnd += { exchange.respond(.ok, text: "\(total) bytes\n") }
        }
        server.route(.get, "/destroy") += { exchange in
            log.paths.append(exchange.path)
            exchange.respond(.ok, text: "destroying\n")
            log.destroy?()
        }
        server.route(.get, "/drop") += { _ in }
        server.route(.get, "/twice") += { exchange in
            exchange.respond(.ok, text: "first")
            exchange.respond(.ok, text: "second")
        }
        server.route(.get, "/close-server") += { exchange in
            log.paths.append(exchange.path)
            exchange.respond(.ok, text: "closing\n")
            server.close()
        }
    }
}

/// A raw TCP client: writes bytes, collects what comes back.
@MainActor
final class RawHTTPClient {
    let probe: ClientProbe

    init(port: UInt16) {
        probe = ClientProbe(port: port)
        _ = LoopDriver.run(until: { self.probe.connection != nil || self.probe.failure != nil })
    }

    func send(_ text: String) {
        probe.connection?.write(Array(text.utf8))
    }

    var text: String { String(decoding: probe.received, as: UTF8.self) }
    var isClosed: Bool { probe.closed != nil || probe.reachedEnd }

    /// How many responses (status lines) arrived.
    var responseCount: Int { text.components(separatedBy: "HTTP/1.1 ").count - 1 }

    func close() { probe.connection?.abort() }
}

/// Runs a system program to its end while the loop runs; its output.
@MainActor
func runPeer(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(20)) throws -> (stdout: String, stderr: String) {
    let peer = try FixtureProcess(executable: executable, arguments: arguments)
    // Its end, and both pipes read to their end (the reader threads may
    // trail the exit).
    let ended = LoopDriver.run(until: { !peer.isRunning && peer.output.hasEnded && peer.errors.hasEnded }, timeout: timeout)
    #expect(ended, "\(executable) did not end: \(peer.transcript)")
    return (peer.output.text, peer.errors.text)
}
