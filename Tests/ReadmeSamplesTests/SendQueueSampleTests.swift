import ComposeApp
import ComposeTesting
import Testing

// DaemonsAndIO.md and Tutorial.md ("Peers that do not read never grow the
// app"), RunningInProduction.md ("Slow clients"): send queue limits.

/// A chat's connection: small messages, tight limits.
private struct RoomMember: Component {
    let connection: TCPConnection
    var observers: Void {
        didAppear += {
            connection.sendQueueLimits = SendQueueLimits(soft: 64 << 10, hard: 256 << 10)
        }
        connection.lines += { line in
            // `say N`: N lines of chat at once.
            guard line.hasPrefix("say "), let count = Int(line.dropFirst(4)) else { return }
            for _ in 0..<count { connection.writeLine("<ada> can you hear me?") }
        }
    }
}

private struct Room: Component {
    let listener = TCPServer(port: 7070)
    let members = InstanceComponent<RoomMember>()
    var observers: Void {
        listener += { connection in members.add { RoomMember(connection: connection) } }
        members.forward(\.connection.didClose) += { id, _ in members.remove(id) }
    }
}

/// A daemon's limits, set as it accepts each client.
private struct ClientSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(String(repeating: line, count: 100_000)) }
    }
}

private struct TunedDaemon: Component {
    let listener = TCPServer(port: 7071)
    let sessions = InstanceComponent<ClientSession>()
    var observers: Void {
        listener += { connection in
            connection.sendQueueLimits = SendQueueLimits(soft: 1 << 20, hard: 16 << 20, gracePeriod: .seconds(10))
            sessions.add { ClientSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

@MainActor
@Suite struct SendQueueSampleTests {
    @Test func aMemberWhoStopsReadingIsResetAfterTheGracePeriodAndOneTooFarBehindAtOnce() throws {
        let app = TestApp(root: Room())
        let quiet = try app.connect(port: 7070)
        quiet.stopReading(window: 16 * 1024)
        quiet.write("say 4000\n")                 // ~90 KiB: above the soft limit
        app.advance(by: .seconds(29))
        #expect(!quiet.isClosedByApp)
        app.advance(by: .seconds(1))
        #expect(quiet.isResetByApp)

        let behind = try app.connect(port: 7070)
        behind.stopReading(window: 16 * 1024)
        behind.write("say 20000\n")               // ~450 KiB: past the hard limit
        #expect(behind.isResetByApp)
        #expect(app.now == .seconds(30))
    }

    @Test func aDaemonWithItsOwnLimitsServesALargeReplyToAReader() throws {
        let app = TestApp(root: TunedDaemon())
        let reader = try app.connect(port: 7071)
        reader.write("0123456789\n")              // a 1 MB reply
        #expect(reader.received.count == 1_000_001)

        let stuck = try app.connect(port: 7071)
        stuck.stopReading()
        stuck.write("0123456789\n")
        app.advance(by: .seconds(10))
        #expect(stuck.isResetByApp == false)     // 1 MB: not above the soft limit (1 MiB)
        stuck.write("01234567890123456789\n")    // 2 MB more
        app.advance(by: .seconds(10))
        #expect(stuck.isResetByApp)
    }
}
