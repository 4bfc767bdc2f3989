import ComposeApp
import ComposeTesting
import Testing

/// `TCPConnection.connect` in a `TestApp` reaches the test's scripted
/// servers; no socket is opened.
@MainActor
@Suite struct TestAppOutgoingTCPTests {
    @Test func theAppTalksToAScriptedServer() throws {
        let redis = Box<TestServer>()
        let app = TestApp(root: RedisClient()) { app in
            redis.value = app.listen(port: 6379) { peer in peer.write("+HELLO\r\n") }
        }
        let client = try #require(app.root(as: RedisClient.self))
        let server = try #require(redis.value)
        #expect(server.peers.count == 1)
        let connection = try #require(server.peers.last)
        #expect(connection.readLines() == ["PING"])
        connection.write("+PONG\r\n")
        #expect(client.journal.entries == ["connected to 127.0.0.1:6379", "got: +HELLO", "got: +PONG"])

        connection.close()
        #expect(client.journal.entries.last == "closed: closed by the peer")
        #expect(client.links.count == 0)
    }

    @Test func connectingWhereNoServerListensIsRefusedNamingTheAddress() throws {
        let app = TestApp(root: RedisClient())
        let client = try #require(app.root(as: RedisClient.self))
        #expect(client.journal.entries == [
            "failed: connectionRefused uv_tcp_connect failed: ECONNREFUSED (connection refused) for 127.0.0.1:6379",
        ])
    }

    @Test func aClosedScriptedServerRefusesLaterConnections() throws {
        let app = TestApp(root: Journal.Holder())
        let server = app.listen()
        #expect(server.port != 0)
        server.close()
        #expect(!server.isListening)
        let journal = Journal()
        app.run {
            TCPConnection.connect(host: "127.0.0.1", port: server.port) { result in
                if case .failure(let error) = result { journal.entries.append("\(error.kind)") }
            }
        }
        #expect(journal.entries == ["connectionRefused"])
    }

    @Test func aPeerResetReachesTheAppsErrorsAndDidClose() throws {
        let redis = Box<TestServer>()
        let app = TestApp(root: RedisClient()) { app in redis.value = app.listen(port: 6379) }
        let client = try #require(app.root(as: RedisClient.self))
        let connection = try #require(redis.value?.peers.last)
        connection.reset()
        #expect(client.journal.entries == [
            "connected to 127.0.0.1:6379",
            "error: connectionReset",
            "closed: failed: uv_read failed: ECONNRESET (connection reset by peer)",
        ])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func theAsyncConnectCompletesOnVirtualTime() async throws {
        let app = TestApp(root: Journal.Holder())
        let server = app.listen(port: 5432)
        let task = Task { try await TCPConnection.connect(host: "::1", port: 5432, context: app.context) }
        await app.settle()
        let connection = try await task.value
        #expect(connection.remoteAddress == "[::1]:5432")
        #expect(server.peers.count == 1)
        connection.start()
        connection.write("hi\n")
        #expect(server.peers.first?.readLines() == ["hi"])
        connection.close()
        app.runUntilIdle()
        #expect(server.peers.first?.isClosedByApp == true)
    }
}

/// `TCPServer` in a `TestApp` meets ports the test holds.
@MainActor
@Suite struct TestAppAddressInUseTests {
    @Test func aPortTheTestOccupiesIsAddressInUseNamingThePort() throws {
        let app = TestApp(root: Listener(port: 7070)) { app in app.occupy(port: 7070) }
        let listener = try #require(app.root(as: Listener.self))
        #expect(listener.journal.entries == ["addressInUse: uv_listen failed: EADDRINUSE (address already in use) for 127.0.0.1:7070"])
        #expect(!listener.server.isListening)
        #expect(throws: LoopError.self) { try app.connect(port: 7070) }
    }

    @Test func listeningByHandThrowsAddressInUseUntilThePortIsReleased() throws {
        let app = TestApp(root: Listener(port: 8080, startsWithComponent: false))
        let listener = try #require(app.root(as: Listener.self))
        _ = app.listen(port: 8080)   // a scripted server holds it
        #expect {
            try app.run { try listener.server.listen() }
        } throws: { error in
            (error as? LoopError)?.kind == .addressInUse && (error as? LoopError)?.context == "127.0.0.1:8080"
        }
        app.occupy(port: 9090)
        app.release(port: 9090)
        let other = Listener(port: 9090, startsWithComponent: false)
        try app.run { try other.server.listen() }
        #expect(other.server.isListening)
        other.server.close()
    }
}
