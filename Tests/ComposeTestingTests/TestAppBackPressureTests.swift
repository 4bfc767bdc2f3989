import ComposeApp
import ComposeTesting
import Testing

/// Answers `flood N` with N lines of 1 KiB and anything else with `pong`,
/// counting what each write returned.
struct Flooder: Component {
    let listener = TCPServer(port: 7000)
    let clients = InstanceComponent<FloodClient>()
    let journal = Journal()
    var observers: Void {
        listener += { connection in clients.add { FloodClient(connection: connection, journal: journal) } }
        clients.forward(\.connection.errors) += { _, error in journal.entries.append("error \(error.kind)") }
        clients.forward(\.connection.didClose) += { id, reason in
            journal.entries.append("closed \(reason)")
            clients.remove(id)
        }
    }
}

struct FloodClient: Component {
    let connection: TCPConnection
    let journal: Journal
    var observers: Void {
        connection.lines += { line in
            let words = line.split(separator: " ")
            guard words.first == "flood", words.count == 2, let count = Int(words[1]) else {
                connection.writeLine("pong")
                return
            }
            let payload = String(repeating: "x", count: 1023)
            var results: [TCPConnection.WriteResult: Int] = [:]
            for _ in 0..<count {
                let result = connection.writeLine(payload)
                results[result, default: 0] += 1
                if result == .closed { break }
            }
            journal.entries.append("wrote \(results[.written] ?? 0) written, \(results[.queued] ?? 0) queued, \(results[.full] ?? 0) full, \(results[.closed] ?? 0) closed")
        }
        connection.didBecomeWritable += { journal.entries.append("drained at \(connection.queuedBytes)") }
    }
}

@MainActor
@Suite struct TestAppBackPressureTests {
    func flooder() throws -> (TestApp, Journal) {
        let app = TestApp(root: Flooder())
        return (app, try #require(app.root(as: Flooder.self)).journal)
    }

    @Test func aPeerThatStopsReadingFillsTheQueuePausesReadingAndDrainsAtTheLowWaterMark() throws {
        let (app, journal) = try flooder()
        let peer = try app.connect(port: 7000)
        peer.stopReading(window: 64 * 1024)
        peer.write("flood 1500\n")
        // 64 lines of 1 KiB fit the peer's buffer; the rest queues: full at 1 MiB.
        #expect(journal.entries == ["wrote 64 written, 1023 queued, 413 full, 0 closed"])
        peer.write("ping\n")                  // not read: reading is paused
        #expect(!peer.receivedText.contains("pong"))

        peer.resumeReading()
        #expect(journal.entries.count == 2)
        #expect(journal.entries.last?.hasPrefix("drained at ") == true)
        let lines = peer.readLines()
        #expect(lines.count == 1501)
        #expect(lines.last == "pong")        // read once the queue drained
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aPeerThatNeverReadsIsCutOffAfterTheGracePeriodAndOthersAreServed() throws {
        let (app, journal) = try flooder()
        let reader = try app.connect(port: 7000)
        let stuck = try app.connect(port: 7000)
        stuck.stopReading()
        stuck.write("flood 10000\n")          // 10 MiB to a peer that reads nothing
        // Above the 4 MiB soft limit, under the 64 MiB hard one: judged
        // after the grace period.
        #expect(!stuck.isClosedByApp)
        app.advance(by: .seconds(30))
        #expect(stuck.isResetByApp)
        #expect(journal.entries.contains("error sendQueueExceeded"))
        #expect(journal.entries.contains { $0.hasPrefix("closed failed: write failed: ENOBUFS (send queue exceeded: the send queue stayed above 4 MiB (soft limit, sendQueueLimits.soft) for 30 s; the peer read 0 B meanwhile") })
        reader.write("ping\n")
        #expect(reader.readLines() == ["pong"])
    }

    @Test func aStuckPeerHoldsAGracefulShutdownForTheCloseFlushTimeoutOnly() throws {
        let (app, _) = try flooder()
        let stuck = try app.connect(port: 7000)
        stuck.stopReading()
        stuck.write("flood 1000\n")           // 1 MiB queued, under the limit
        app.send(.terminate)
        #expect(app.exitStatus == nil)        // the connection waits for its peer
        app.runUntilExit()
        #expect(app.exitStatus == 0)          // not the forced deadline's 3
        #expect(app.now == .seconds(2))       // closeFlushTimeout
        #expect(stuck.isResetByApp)           // not a FIN behind what it left unread
    }

    @Test func aPeerThatReadsWithinTheFlushTimeoutGetsEverything() throws {
        let (app, _) = try flooder()
        let slow = try app.connect(port: 7000)
        slow.stopReading()
        slow.write("flood 1000\n")
        app.send(.terminate)
        app.advance(by: .seconds(1))
        slow.resumeReading()
        #expect(slow.readLines().count == 1000)
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(1))
    }
}

/// Echoes lines; connections idle for 30 s are closed.
struct PatientServer: Component {
    let listener = TCPServer(port: 7300)
    let clients = InstanceComponent<PatientClient>()
    let journal = Journal()
    var observers: Void {
        listener += { connection in clients.add { PatientClient(connection: connection) } }
        clients.forward(\.connection.errors) += { _, error in journal.entries.append("\(error.kind) \(error)") }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

struct PatientClient: Component {
    let connection: TCPConnection
    var observers: Void {
        didAppear += { connection.idleTimeout = .seconds(30) }
        connection.lines += { connection.writeLine($0) }
    }
}

@MainActor
@Suite struct IdleTimeoutTests {
    @Test func aPeerThatSendsNothingForTheIdleTimeoutIsClosedAndOnlyReceivingCounts() throws {
        let app = TestApp(root: PatientServer())
        let journal = try #require(app.root(as: PatientServer.self)).journal
        let peer = try app.connect(port: 7300)
        app.advance(by: .seconds(20))
        peer.write("still here\n")                 // resets the clock at 20 s
        #expect(peer.readLines() == ["still here"])
        app.advance(by: .seconds(29))
        #expect(!peer.isClosedByApp)              // 49 s: idle for 29 s only
        app.advance(by: .seconds(1))
        #expect(peer.isClosedByApp)               // 50 s: idle for 30 s
        #expect(journal.entries.count == 1)
        #expect(journal.entries.first?.hasPrefix("timedOut uv_read failed: ETIMEDOUT") == true)
        #expect(journal.entries.first?.contains("idle for 30.0 seconds (idleTimeout)") == true)
    }
}
