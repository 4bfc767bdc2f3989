// Sources/ComposeTLS/ComposeTLS.docc/ComposeTLS.md: the TLS daemon and the
// client. (Real handshakes are tested on real sockets: TLSTests.)
import ComposeTesting
import Testing
import ComposeTLS

struct SecureEchoSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line) }
    }
}

struct SecureEchoServer: Component {
    let listener = TCPServer(host: "0.0.0.0", port: 8443, tls: .server(
        certificateChain: "/etc/echo/fullchain.pem",
        privateKey: "/etc/echo/key.pem"
    ))
    let sessions = InstanceComponent<SecureEchoSession>()
    var observers: Void {
        listener += { connection in sessions.add { SecureEchoSession(connection: connection) } }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

@MainActor
@Test func theTLSDaemonsListenerIsATLSServerOnItsPort() throws {
    let server = SecureEchoServer()
    let tls = try #require(server.listener.tlsConfiguration)
    #expect(tls.isServer)
    #expect(tls.minimumVersion == .tls12)
    #expect(tls.handshakeTimeout == .seconds(10))
    #expect(server.listener.port == 8443)
}

/// The article's client line; called outside a running app here.
@MainActor
func connectToExampleOverTLS() async throws(LoopError) -> TCPConnection {
    let connection = try await TCPConnection.connect(host: "example.com", port: 443, tls: .client())
    return connection
}

@MainActor
@Test func aTLSClientNeedsARunningApp() async throws {
    // No app context here: no loop to connect on, so no network is touched.
    do {
        _ = try await connectToExampleOverTLS()
        Issue.record("connected without an app")
    } catch {
        #expect(error.kind == .noEventLoop)
    }
}
