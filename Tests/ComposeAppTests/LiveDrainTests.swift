@_spi(Testing) import ComposeApp
import ComposeTesting
import Foundation
import Testing

/// The drain on a real loop, for what the simulation does not have: a
/// `UnixServer` (its socket file) and real sockets.
@MainActor
@Suite(.serialized, .liveLoop) struct LiveDrainTests {
    @Test func aShutdownClosesAUnixListenerFirstAndClosesAConnectionNobodyTellsToDrain() throws {
        try withSocketDirectory { directory in
            let path = directory + "/drain.sock"
            let tree = ComponentTree(UnixEchoServer(listener: UnixServer(path: path)))
            tree.activate()
            defer { tree.destroy(); LoopDriver.settle() }
            let server = try #require(tree.root.value(as: UnixEchoServer.self))
            var result: Result<TCPConnection, LoopError>?
            TCPConnection.connect(unixPath: path) { result = $0 }
            #expect(LoopDriver.run(until: { result != nil && server.clients.count == 1 }))
            let client = try #require(try result?.get())
            defer { client.abort() }
            client.start()

            let shutdown = tree.context.shutdown
            shutdown.didStart()
            #expect(shutdown.connectionCount == 1)
            shutdown.request()
            #expect(shutdown.phase == .draining)
            #expect(!server.listener.isListening)
            #expect(fileMode(path) == nil)                  // the socket file went with the listener
            #expect(throws: LoopError.self) { try server.listener.listen() }
            // EchoComponent observes no willDrain: closed at once, and the
            // drain ends once the socket has.
            #expect(LoopDriver.run(until: { !client.isOpen && shutdown.phase == .closing }))
            #expect(shutdown.connectionCount == 0)
        }
    }
}
