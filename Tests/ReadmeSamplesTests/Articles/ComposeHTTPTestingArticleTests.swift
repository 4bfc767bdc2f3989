// Sources/ComposeHTTP/ComposeHTTP.docc/ComposeHTTP.md, "HTTPS" and
// "Testing": the HTTPS server and the article's TestApp test of the
// greeting daemon (ComposeHTTPArticleTests.swift), as written there.
import ComposeHTTPS
import ComposeTesting
import Testing
import ComposeHTTPTesting

@MainActor
@Test func theDaemonGreetsAndCounts() throws {
    let app = TestApp(GreetingDaemon.self)
    let hello = try app.http(.get, "/hello/ada")
    #expect(hello.status == .ok)
    #expect(hello.text == "hello ada\n")
    #expect(try app.http(.post, "/echo", text: "ping").text == "ping")

    let client = try app.httpClient()        // one connection, kept alive
    client.send(.get, "/hello/grace")         // two requests, pipelined
    client.send(.get, "/count")
    #expect(try client.response().text == "hello grace\n")
    #expect(try client.response().text == "2\n")
}

struct SecureGreeting: Component {
    let server = HTTPServer(port: 8443, tls: .server(
        certificateChain: "/etc/myapp/cert.pem",
        privateKey: "/etc/myapp/key.pem"
    ))
    var observers: Void {
        server.serveHealth()
        server.route(.get, "/hello") += { $0.respond(.ok, text: "hello\n") }
    }
}

/// The HTTPS server offers ALPN `http/1.1`, and in a TestApp it answers
/// on the simulated network (no TLS there, no certificate read).
@MainActor
@Test func theSecureGreetingAnswersInATestApp() throws {
    let app = TestApp(root: SecureGreeting())
    #expect(app.root(as: SecureGreeting.self)?.server.tlsConfiguration?.applicationProtocols == ["http/1.1"])
    #expect(try app.http(.get, "/hello").text == "hello\n")
    #expect(try app.http(.get, "/readyz").text == "ready\n")
}
