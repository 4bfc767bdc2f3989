import ComposeApp
import ComposeTesting
import Testing

/// TCP servers of a `TestApp` on its simulated network: no socket is
/// opened, everything happens on virtual time.
@MainActor
@Suite struct TestAppTCPTests {
    @Test func aClientIsGreetedAnsweredAndLetGo() throws {
        let app = TestApp(root: ShoutServer())
        let server = try #require(app.root(as: ShoutServer.self))
        let peer = try app.connect(port: 7070)
        #expect(peer.readLines() == ["Hello 127.0.0.1:\(peer.port)"])
        #expect(server.clients.count == 1)

        peer.write("hel")
        #expect(peer.readLines() == [])
        peer.write("lo\nworld\r\n")
        #expect(peer.readLines() == ["HELLO", "WORLD"])

        peer.write("/quit\n")
        #expect(peer.readLines() == ["Bye!"])
        #expect(peer.isClosedByApp)
        #expect(server.clients.count == 0)
        #expect(server.errors.entries.isEmpty)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aClientThatClosesIsRemovedAndTheOthersStayServed() throws {
        let app = TestApp(root: ShoutServer())
        let server = try #require(app.root(as: ShoutServer.self))
        let ada = try app.connect(port: 7070)
        let bob = try app.connect(port: 7070)
        #expect(server.clients.count == 2)
        ada.close()
        #expect(server.clients.count == 1)
        bob.write("still here\n")
        #expect(bob.readLines().last == "STILL HERE")
    }

    @Test func writingToAClientThatResetIsOneErrorAndTheConnectionCloses() throws {
        let app = TestApp(root: ShoutServer())
        let server = try #require(app.root(as: ShoutServer.self))
        let peer = try app.connect(port: 7070)
        peer.reset()
        #expect(server.clients.count == 0)
        #expect(server.errors.entries == ["connectionReset"])
    }

    @Test func sigtermSaysGoodbyeToEveryClientAndExits0() throws {
        let app = TestApp(root: ShoutServer())
        let peers = try (0..<3).map { _ in try app.connect(port: 7070) }
        for peer in peers { _ = peer.readLines() }
        app.send(.terminate)
        for peer in peers {
            #expect(peer.readLines() == ["Goodbye!"])
            #expect(peer.isClosedByApp)
        }
        #expect(app.exitStatus == 0)
    }

    @Test func connectingToAPortNobodyListensOnIsRefused() {
        let app = TestApp(root: ShoutServer())
        #expect {
            try app.connect(port: 7071)
        } throws: { error in
            (error as? LoopError)?.kind == .connectionRefused
        }
    }

    @Test func twoServersOnOnePortIsAddressInUseNamingTheAddress() throws {
        let app = TestApp(root: PortClash())
        let clash = try #require(app.root(as: PortClash.self))
        #expect(clash.errors.entries == ["uv_listen failed: EADDRINUSE (address already in use) for 127.0.0.1:9000"])
    }

    @Test func anAppWhoseOnlyWorkIsAListenerRunsUntilToldToStop() {
        let app = TestApp(root: ShoutServer())
        app.runUntilExit(limit: .seconds(3600))
        #expect(!app.hasExited)
        app.send(.interrupt)
        #expect(app.exitStatus == 0)
    }
}
