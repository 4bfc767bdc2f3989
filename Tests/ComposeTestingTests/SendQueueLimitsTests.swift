import ComposeApp
import ComposeTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Answers `get N` with N bytes in one write, as a key-value daemon answers
/// GET of a large value. `careless`, it goes on reading requests while its
/// queue is full.
struct ValueServer: Component {
    var limits: SendQueueLimits = .default
    var careless = false
    let listener = TCPServer(port: 6379)
    let clients = InstanceComponent<ValueClient>()
    let log = SendQueueLog()
    var observers: Void {
        listener += { connection in
            connection.sendQueueLimits = limits
            connection.pausesReadingWhenFull = !careless
            log.connections.append(connection)
            clients.add { ValueClient(connection: connection) }
        }
        clients.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

struct ValueClient: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in
            let words = line.split(separator: " ")
            guard words.count == 2, words[0] == "get", let size = Int(words[1]) else {
                connection.writeLine("ERR")
                return
            }
            connection.write(ValueClient.value(size))
        }
    }

    /// N bytes of a pattern whose period (a prime, 65,521) lines up with
    /// no piece a socket or the simulation hands over, so a piece lost,
    /// doubled or out of order shows. Made by copies of one period: a
    /// debug build is slow to make megabytes byte by byte.
    static func value(_ size: Int) -> [UInt8] {
        let period = (0..<65_521).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        while bytes.count < size { bytes.append(contentsOf: period.prefix(size - bytes.count)) }
        return bytes
    }

    /// Whether `bytes` are ``value(_:)`` of `size` (compared with `memcmp`:
    /// a debug build compares arrays byte by byte slowly).
    static func isValue(_ bytes: [UInt8], size: Int) -> Bool {
        let expected = value(size)
        guard bytes.count == size else { return false }
        return bytes.withUnsafeBytes { a in expected.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, size) == 0 } }
    }
}

@MainActor
final class SendQueueLog {
    var connections: [TCPConnection] = []
    var errors: [LoopError] = []
}

/// The send queue judges the peer, not the reply (`SendQueueLimits`): on a
/// TestApp, whose simulated peers take what the app writes as sockets do
/// (256 KiB a step while reading), and whose clock is virtual.
@MainActor
@Suite struct SendQueueLimitsTests {
    func server(_ server: ValueServer) throws -> (TestApp, SendQueueLog) {
        let app = TestApp(root: server)
        return (app, try #require(app.root(as: ValueServer.self)).log)
    }

    @Test func aTwentyMegabyteReplyReachesAPeerThatReadsWithTheDefaultLimits() throws {
        let (app, log) = try server(ValueServer())
        let peer = try app.connect(port: 6379)
        peer.write("get 20000000\n")
        #expect(peer.received.count == 20_000_000)
        #expect(ValueClient.isValue(peer.received, size: 20_000_000))
        #expect(log.errors.isEmpty)
        #expect(!peer.isClosedByApp)
        // It did queue, far past the soft limit, as on a socket; and it
        // was never judged for it.
        let connection = try #require(log.connections.first)
        #expect(connection.peakQueuedBytes > 4 << 20)
        #expect(connection.peakQueuedBytes <= SendQueueLimits.default.hard)
        #expect(connection.queuedBytes == 0)
        app.advance(by: .seconds(120))
        #expect(!peer.isClosedByApp)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aPeerThatStopsReadingIsResetAfterTheGracePeriodAndTheErrorSaysWhy() throws {
        let limits = SendQueueLimits(soft: 1 << 20, gracePeriod: .seconds(10))
        let (app, log) = try server(ValueServer(limits: limits))
        let peer = try app.connect(port: 6379)
        peer.stopReading(window: 64 * 1024)
        peer.write("get 4000000\n")
        app.advance(by: .milliseconds(9_999))
        #expect(!peer.isClosedByApp)
        app.advance(by: .milliseconds(1))
        #expect(peer.isResetByApp)
        let error = try #require(log.errors.first)
        #expect(log.errors.count == 1)
        #expect(error.kind == .sendQueueExceeded)
        let message = "\(error)"
        #expect(message.contains("the send queue stayed above 1 MiB (soft limit, sendQueueLimits.soft) for 10 s; the peer read 0 B meanwhile, less than the 64 KiB it must read per grace period (sendQueueLimits.minimumProgress)"))
        #expect(message.hasSuffix("so the connection was reset)"))
        // What the peer's buffer took (64 KiB) is all it ever got.
        peer.resumeReading()
        #expect(peer.received.count == 64 * 1024)
    }

    @Test func aPeerThatReadsSlowlyIsServedWhateverTheReplysSize() throws {
        let limits = SendQueueLimits(soft: 1 << 20, gracePeriod: .seconds(10))
        let (app, log) = try server(ValueServer(limits: limits))
        let peer = try app.connect(port: 6379)
        peer.stopReading(window: 64 * 1024)
        peer.write("get 4000000\n")
        // 16 KiB a second: 160 KiB per grace period, enough to count as
        // reading; the reply takes four minutes to go out.
        for _ in 0..<260 {
            app.advance(by: .seconds(1))
            peer.read(upTo: 16 * 1024)
        }
        peer.resumeReading()
        #expect(peer.received.count == 4_000_000)
        #expect(log.errors.isEmpty)
        #expect(!peer.isClosedByApp)
    }

    @Test func aPeerThatTricklesIsCutOffAndOneThatStopsLaterIsJudgedPerGracePeriod() throws {
        let limits = SendQueueLimits(soft: 1 << 20, gracePeriod: .seconds(10))
        let (app, log) = try server(ValueServer(limits: limits))
        // 1 KiB a second: a slow-read attack, not a reader.
        let trickle = try app.connect(port: 6379)
        trickle.stopReading(window: 64 * 1024)
        trickle.write("get 4000000\n")
        // 100 KiB a second for 7 s, then nothing.
        let stalls = try app.connect(port: 6379)
        stalls.stopReading(window: 64 * 1024)
        stalls.write("get 4000000\n")
        for second in 1...30 {
            app.advance(by: .seconds(1))
            trickle.read(upTo: 1024)
            if second < 8 { stalls.read(upTo: 100 * 1024) }
        }
        #expect(trickle.isResetByApp)
        #expect(stalls.isResetByApp)
        let messages = log.errors.map { "\($0)" }
        #expect(messages.count == 2)
        // Judged at 10 s, having read a kibibyte a second before it.
        #expect(messages.first?.contains("stayed above 1 MiB (soft limit, sendQueueLimits.soft) for 10 s; the peer read 9 KiB meanwhile, less than the 64 KiB") == true)
        // Read enough in the first period, nothing after 7 s: cut at 20 s.
        #expect(messages.last?.contains("stayed above 1 MiB (soft limit, sendQueueLimits.soft) for 20 s; the peer read 0 B in the last 10 s (sendQueueLimits.gracePeriod), less than the 64 KiB") == true)
    }

    @Test func theHardLimitCutsAtOnceAndTheQueueNeverPassesIt() throws {
        let limits = SendQueueLimits(soft: 1 << 20, hard: 2 << 20)
        let (app, log) = try server(ValueServer(limits: limits, careless: true))
        let peer = try app.connect(port: 6379)
        peer.stopReading(window: 64 * 1024)
        peer.write("get 800000\n")
        peer.write("get 800000\n")
        #expect(!peer.isClosedByApp)
        peer.write("get 800000\n")             // would take it past 2 MiB
        #expect(peer.isResetByApp)
        #expect(app.now == .zero)
        let connection = try #require(log.connections.first)
        #expect(connection.peakQueuedBytes == 2 * 800_000 - 64 * 1024)
        let message = "\(try #require(log.errors.first))"
        #expect(message.contains("a write of 781.3 KiB would take the send queue from 1.5 MiB to 2.2 MiB (2334464 bytes), past 2 MiB (hard limit, sendQueueLimits.hard); the peer read 0 B in the 0 ms since the queue passed 1 MiB (soft limit)"))
    }

    @Test func aQueueBackAtTheSoftLimitEndsTheJudgement() throws {
        let limits = SendQueueLimits(soft: 1 << 20, gracePeriod: .seconds(10))
        let (app, log) = try server(ValueServer(limits: limits))
        let peer = try app.connect(port: 6379)
        peer.stopReading(window: 64 * 1024)
        peer.write("get 2000000\n")
        app.advance(by: .seconds(9))
        peer.resumeReading()                  // all of it, at 9 s
        peer.stopReading(window: 64 * 1024)
        peer.write("get 2000000\n")             // above the soft limit again
        // A new judgement, from 9 s: nothing happens at 10 s.
        app.advance(by: .seconds(9))
        #expect(!peer.isClosedByApp)
        app.advance(by: .seconds(1))
        #expect(peer.isResetByApp)
        #expect(log.errors.map { "\($0)".contains("for 10 s; the peer read 0 B meanwhile") } == [true])
    }

    @Test func unlimitedNeverCutsAndAnOrdinaryCloseIsNoReset() throws {
        let (app, log) = try server(ValueServer(limits: .unlimited))
        let stuck = try app.connect(port: 6379)
        stuck.stopReading()
        stuck.write("get 30000000\n")
        app.advance(by: .seconds(3600))
        #expect(!stuck.isClosedByApp)
        #expect(log.errors.isEmpty)
        stuck.resumeReading()
        #expect(stuck.received.count == 30_000_000)

        let polite = try app.connect(port: 6379)
        polite.write("get 10\n")
        polite.close()
        #expect(polite.received.count == 10)
        #expect(!polite.isResetByApp)
    }

    @Test func theLimitsDescribeThemselves() {
        #expect("\(SendQueueLimits.default)" == "soft 4 MiB for 30 s (at least 64 KiB read), hard 64 MiB")
        #expect("\(SendQueueLimits(soft: 1536 << 10, gracePeriod: .milliseconds(1500)))" == "soft 1.5 MiB for 1.5 s (at least 64 KiB read), hard 64 MiB")
        #expect("\(SendQueueLimits(soft: 1 << 20, hard: 512 << 10))" == "hard 512 KiB")
        #expect("\(SendQueueLimits.unlimited)" == "no hard limit")
    }
}
