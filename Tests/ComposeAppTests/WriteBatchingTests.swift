@_spi(Testing) import ComposeApp
import Testing

/// Greets each client with `count` lines, written in one observer call
/// (one loop turn), and counts the write requests that took.
struct Chatterbox: Component {
    let listener = TCPServer(port: 0)
    let clients = InstanceComponent<EchoComponent>()
    let count: Int
    let journal = WriteJournal()
    var observers: Void {
        listener += { connection in
            clients.add { EchoComponent(connection: connection) }
            let before = LoopDriver.writeCalls
            for index in 0..<count { connection.writeLine("line \(index)") }
            journal.writeCallsInTurn = LoopDriver.writeCalls - before
            journal.start = before
        }
    }
}

@MainActor
final class WriteJournal {
    var start = 0
    var writeCallsInTurn = 0
}

@MainActor
@Suite(.serialized, .liveLoop) struct WriteBatchingTests {
    @Test func aThousandLinesWrittenInOneTurnLeaveInAtMostFiveWriteCalls() throws {
        let tree = ComponentTree(Chatterbox(count: 1000))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: Chatterbox.self))
        let client = ClientProbe(port: server.listener.port)
        let expected = (0..<1000).map { "line \($0)\n" }.joined()
        #expect(LoopDriver.run(until: { client.received.count >= expected.utf8.count }))
        #expect(String(decoding: client.received, as: UTF8.self) == expected)
        // The first line went at once; the other 999 were batched.
        #expect(server.journal.writeCallsInTurn == 1)
        // The batch left at the end of the turn: the server made at most
        // five write requests in all (the client made none).
        let total = LoopDriver.writeCalls - server.journal.start
        #expect(total <= 5, "\(total) write calls")
    }

    @Test func writesOfDifferentTurnsEachLeaveAtOnce() throws {
        try withEchoServer { echo, _ in
            let client = ClientProbe(port: echo.listener.port)
            #expect(LoopDriver.run(until: { client.connection != nil && echo.clients.count == 1 }))
            for round in 1...3 {
                client.connection?.write("ping \(round)\n")
                #expect(LoopDriver.run(until: { String(decoding: client.received, as: UTF8.self).hasSuffix("ping \(round)\n") }))
            }
            #expect(String(decoding: client.received, as: UTF8.self) == "ping 1\nping 2\nping 3\n")
        }
    }
}

/// Reads everything its clients send and throws it away; counts timer
/// ticks meanwhile.
struct Sink: Component {
    let listener = TCPServer(port: 0)
    let clients = InstanceComponent<Discard>()
    var observers: Void {
        listener += { connection in clients.add { Discard(connection: connection) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

struct Discard: Component {
    let connection: TCPConnection
    var observers: Void {
        connection += { _ in }
    }
}

@MainActor
@Suite(.serialized, .liveLoop) struct ReadBudgetTests {
    @Test func aFloodingStreamDeliversAtMostItsBudgetPerTurnAndEverythingArrives() throws {
        // A small budget, so the kernel has more than it ready per turn.
        let budget = LoopDriver.readBudgetPerTurn
        LoopDriver.readBudgetPerTurn = 16 * 1024
        let tree = ComponentTree(Sink())
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle(); LoopDriver.readBudgetPerTurn = budget }
        let sink = try #require(tree.root.value(as: Sink.self))
        let client = ClientProbe(port: sink.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && sink.clients.count == 1 }))
        let received = Counter()
        sink.clients.forward(\.connection.received) += { _, chunk in received.value += chunk.count }
        // 32 MiB as fast as the client can: the server reads in budgets.
        let chunk = [UInt8](repeating: 1, count: 256 * 1024)
        let flood = 128
        var sent = 0
        #expect(LoopDriver.run(until: {
            while sent < flood, let connection = client.connection, !connection.isFull {
                connection.write(chunk)
                sent += 1
            }
            return received.value >= flood * chunk.count
        }, timeout: .seconds(60)))
        #expect(received.value == flood * chunk.count)
        let largest = LoopDriver.largestReadInTurn
        #expect(largest > 0)
        // At most one read past the budget (a read takes what is there).
        #expect(largest <= 16 * 1024 + 256 * 1024, "\(largest) bytes in one turn")
    }
}

@MainActor
@Suite(.serialized, .liveLoop) struct SocketOptionTests {
    @Test(arguments: [(true, Duration?.none), (false, Duration?.some(.seconds(45)))])
    func acceptedConnectionsGetTheServersNoDelayAndKeepAlive(noDelay: Bool, keepAlive: Duration?) throws {
        let tree = ComponentTree(EchoServer())
        let echo = try #require(tree.root.value(as: EchoServer.self))
        echo.listener.noDelay = noDelay
        echo.listener.keepAlive = keepAlive
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let client = ClientProbe(port: echo.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && echo.clients.count == 1 }))
        let accepted = try #require(echo.clients.ids.first.flatMap { echo.clients[$0] }?.connection)
        let options = try #require(LoopDriver.socketOptions(of: accepted))
        #expect(options.noDelay == noDelay)
        #expect(options.keepAlive == (keepAlive != nil))
        if keepAlive != nil { #expect(options.keepIdle == 45) }
    }
}
