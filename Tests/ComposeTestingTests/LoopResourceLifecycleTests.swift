import ComposeApp
import ComposeTesting
import Testing

/// A ``ShoutServer`` that is part of the active tree only while it is
/// routed to.
struct Gate: RouterComponent {
    let lobby = ShoutServer()
    let router = Router(start: \Self.self)
    var observers: Void { None }
}

/// TCP servers and connections follow their component's lifecycle as loop
/// resources: a server listens while its component is active; a connection
/// goes on reading while its component is inactive.
@MainActor
@Suite struct LoopResourceLifecycleTests {
    @Test func aServerListensOnlyWhileActiveAndItsConnectionsGoOnReading() throws {
        let app = TestApp(root: Gate())
        let gate = try #require(app.root(as: Gate.self))
        #expect(throws: LoopError.self) { try app.connect(port: 7070) }

        app.run { gate.router.push(\Gate.lobby) }
        let peer = try app.connect(port: 7070)
        #expect(peer.readLines() == ["Hello 127.0.0.1:\(peer.port)"])

        app.run { gate.router.pop() }
        #expect {
            try app.connect(port: 7070)
        } throws: { error in
            (error as? LoopError)?.kind == .connectionRefused
        }
        peer.write("still here\n")
        #expect(peer.readLines() == ["STILL HERE"])

        app.run { gate.router.push(\Gate.lobby) }
        let second = try app.connect(port: 7070)
        #expect(second.readLines() == ["Hello 127.0.0.1:\(second.port)"])
        #expect(app.diagnostics.isEmpty)
    }
}
