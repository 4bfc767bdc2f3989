@_spi(Testing) import ComposeApp
import Testing

/// Runs `yes` for each client and relays its lines to the client.
struct YesServer: Component {
    let listener = TCPServer(port: 0)
    let sessions = InstanceComponent<YesSession>()
    var observers: Void {
        listener += { connection in sessions.add { YesSession(connection: connection) } }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

struct YesSession: Component {
    let connection: TCPConnection
    let child = ChildProcess("/usr/bin/yes", arguments: ["compose"], startsWithComponent: true)
    var observers: Void {
        child.output.relay(to: connection, pausing: child)
    }
}

@MainActor
@Suite(.serialized, .liveLoop) struct ChildProcessRelayTests {
    @Test func aClientThatDoesNotReadPausesTheChildInsteadOfGrowingTheQueue() throws {
        let tree = ComponentTree(YesServer())
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: YesServer.self))
        let client = ClientProbe(port: server.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && server.sessions.count == 1 }))
        client.connection?.pauseReading()
        let session = try #require(server.sessions.ids.first.flatMap { server.sessions[$0] })
        // The kernel's buffers on both sides fill first (several MiB on
        // loopback): on a loaded machine `yes` takes a while to fill them.
        // The condition is the event; the timeout only guards a hang.
        #expect(LoopDriver.run(until: { session.connection.isFull }, timeout: .seconds(90)))

        // Real time on purpose: what is checked is that nothing grows while
        // the client does not read, and `yes` never stops writing by itself.
        _ = LoopDriver.run(until: { false }, timeout: .milliseconds(300))
        let queued = session.connection.queuedBytes
        #expect(queued <= session.connection.highWaterMark + 2 * 256 * 1024, "\(queued) bytes queued")
        #expect(session.connection.isOpen)            // not cut off: the relay held the child back

        client.connection?.resumeReading()
        let target = client.received.count + 8 * 1024 * 1024
        #expect(LoopDriver.run(until: { client.received.count >= target }, timeout: .seconds(30)))
        #expect(client.received.prefix(8) == Array("compose\n".utf8)[...])
    }
}

@MainActor
@Suite(.serialized, .liveLoop) struct ChildProcessInputTests {
    @Test func writesToAChildThatReadsSlowlyReportFullThenDrained() throws {
        // `sleep 1; cat` reads nothing for a second: the first writes fill
        // the pipe and then the queue.
        let child = ChildProcess("/bin/sh", arguments: ["-c", "sleep 1; cat > /dev/null"], acceptsInput: true)
        var events: [String] = []
        child.didBecomeWritable += { events.append("drained at \(child.queuedInputBytes)") }
        try child.start()
        defer { child.close() }
        let chunk = [UInt8](repeating: 120, count: 64 * 1024)
        var results: [WriteResult] = []
        while results.last != .full { results.append(child.write(chunk)) }
        #expect(results.dropLast().allSatisfy { $0 == .queued })
        #expect(child.isInputFull)
        #expect(child.queuedInputBytes >= child.inputHighWaterMark)
        #expect(LoopDriver.run(until: { !events.isEmpty }, timeout: .seconds(20)))
        #expect(events.count == 1)
        #expect(!child.isInputFull)
        #expect(child.queuedInputBytes <= child.inputLowWaterMark)
    }

    @Test func aRelayIntoAChildNeverQueuesPastItsHighWaterMark() throws {
        let source = Emitter<String>()
        let paused = PauseLog()
        let child = ChildProcess("/bin/sh", arguments: ["-c", "sleep 1; cat > /dev/null"], acceptsInput: true)
        source.relay(to: child, pausing: paused)
        try child.start()
        defer { child.close() }
        let line = String(repeating: "y", count: 1023)
        var sent = 0
        while !paused.isPaused { source.send(line); sent += 1 }
        #expect(child.queuedInputBytes < child.inputHighWaterMark + 1024)
        #expect(LoopDriver.run(until: { paused.resumed > 0 }, timeout: .seconds(20)))
        #expect(sent >= 1024)
    }
}

/// A source that only records being paused and resumed.
@MainActor
final class PauseLog: ReadableStream {
    var isPaused = false
    var resumed = 0
    func pauseReading() { isPaused = true }
    func resumeReading() {
        isPaused = false
        resumed += 1
    }
}
