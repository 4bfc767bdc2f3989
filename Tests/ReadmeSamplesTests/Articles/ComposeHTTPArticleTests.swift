// Sources/ComposeHTTP/ComposeHTTP.docc/ComposeHTTP.md: the small HTTP
// daemon and the late answer, served on TestApp's simulated network
// (through the real parser). Real sockets: HTTPServerTests, HTTPLimitsTests.
import ComposeTesting
import Testing
import ComposeHTTP

struct GreetingDaemon: Component, StartupComponent {
    let server = HTTPServer(host: "127.0.0.1", port: 8080)
    @Store var greetings = 0

    var observers: Void {
        server.route(.get, "/hello/:name") += { exchange in
            greetings += 1
            exchange.respond(.ok, text: "hello \(exchange.parameters["name"] ?? "")\n")
        }
        server.route(.get, "/count") += { exchange in
            exchange.respond(.ok, text: "\(greetings)\n")
        }
        server.route(.post, "/echo") += { exchange in
            exchange.collectBody(upTo: 1 << 20) += { body in
                exchange.respond(.ok, body: body)
            }
        }
        server.errors += { error in
            Application.print("cannot serve: \(error)")
            Application.shutdown(status: 1)
        }
    }
}

struct SlowAPI: Component {
    let server = HTTPServer(host: "127.0.0.1", port: 8081)
    var observers: Void {
        server.route(.get, "/slow") += { exchange in
            Task {
                try? await Task.sleep(for: .milliseconds(200))   // stands for slow work: a query, another service
                exchange.respond(.ok, text: "done\n")
            }
        }
    }
}

struct ProbedAPI: Component {
    let server = HTTPServer(port: 8082)
    var observers: Void {
        server.serveHealth(maximumLag: .milliseconds(250))
    }
}

@MainActor
@Test func theProbedAPIAnswersItsHealthEndpoints() throws {
    let app = TestApp(root: ProbedAPI())
    let peer = try app.connect(port: 8082)
    peer.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\n\r\n")
    let text = peer.receivedText
    #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
    #expect(text.contains("\r\n\r\nok\nHTTP/1.1 200 OK\r\n"), "\(text)")
    #expect(text.hasSuffix("\r\n\r\nready\n"), "\(text)")
}

@MainActor
@Test func theGreetingDaemonAnswersOnOneConnection() throws {
    let app = TestApp(root: GreetingDaemon())
    let peer = try app.connect(port: 8080)
    peer.write("GET /hello/ada HTTP/1.1\r\nHost: x\r\n\r\nGET /count HTTP/1.1\r\nHost: x\r\n\r\n")
    peer.write("POST /echo HTTP/1.1\r\nContent-Length: 4\r\n\r\nping")
    let text = peer.receivedText
    #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
    #expect(text.contains("hello ada\n"))
    #expect(text.contains("\r\n\r\n1\n"))
    #expect(text.hasSuffix("\r\n\r\nping"))
    #expect(!peer.isClosedByApp)
}

@MainActor
@Test func theSlowRouteDeclaresOneRoute() {
    let api = SlowAPI()
    #expect(api.server.port == 8081)
    #expect(api.server.routeCount == 0)   // none until its observers run
}
