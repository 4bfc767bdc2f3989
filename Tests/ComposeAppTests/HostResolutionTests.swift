@_spi(Testing) import ComposeApp
import ComposeTesting
import Testing

@MainActor
@Suite(.serialized, .liveLoop) struct HostResolutionTests {
    @Test func aHostNameIsResolvedWithoutBlockingTheLoopAndConnects() throws {
        try withEchoServer { echo, _ in
            // `localhost` comes from /etc/hosts through uv_getaddrinfo; if it
            // also names ::1, which nobody listens on, the next address is tried.
            var result: Result<TCPConnection, LoopError>?
            TCPConnection.connect(host: "localhost", port: echo.listener.port) { result = $0 }
            #expect(LoopDriver.run(until: { result != nil }))
            let connection = try #require(try result?.get())
            #expect(connection.remoteAddress == "127.0.0.1:\(echo.listener.port)")
            connection.abort()
        }
    }
}

@MainActor
@Suite struct SimulatedHostResolutionTests {
    /// Connects to `host` when it appears, writing down how that went.
    struct Dialer: Component {
        let host: String
        let outcome = Journal()
        var observers: Void {
            didAppear += {
                TCPConnection.connect(host: host, port: 6379) { result in
                    switch result {
                    case .success(let connection): outcome.entries.append("connected to \(connection.remoteAddress)")
                    case .failure(let error): outcome.entries.append("\(error.kind): \(error)")
                    }
                }
            }
        }
    }

    @Test func aTestContextReachesItsScriptedServerThroughLocalhost() throws {
        let app = TestApp(root: Dialer(host: "localhost")) { app in _ = app.listen(port: 6379) }
        let dialer = try #require(app.root(as: Dialer.self))
        #expect(dialer.outcome.entries == ["connected to 127.0.0.1:6379"])
    }

    @Test func aTestContextDoesNotKnowOtherNames() throws {
        let app = TestApp(root: Dialer(host: "db.internal")) { app in _ = app.listen(port: 6379) }
        let dialer = try #require(app.root(as: Dialer.self))
        #expect(dialer.outcome.entries.count == 1)
        #expect(dialer.outcome.entries.first?.hasPrefix("hostNotFound: uv_getaddrinfo failed: EAI_NONAME") == true)
        #expect(dialer.outcome.entries.first?.contains("db.internal") == true)
    }
}
