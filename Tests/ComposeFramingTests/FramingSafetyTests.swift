import ComposeFraming
import ComposeTesting
import Testing

/// The second reader's attempts to break the framing's unsafe constructs
/// (docs/unsafe.md: `FrameDelivery.source` and the gates,
/// `unowned(unsafe)`; the delivery's, the reader's and the decoding
/// state's `@exclusivity(unchecked)` fields): observers that re-enter the
/// stream, or drop the last reference to it, in the middle of a delivery,
/// and streams that go away while frames wait. Run in debug (exclusivity
/// checked) and under AddressSanitizer (`make test-asan`).
@MainActor
@Suite struct FramingSafetyTests {
    func reentrantEcho() throws -> (TestApp, ReentrantEcho) {
        let app = TestApp(root: ReentrantEcho())
        return (app, try #require(app.root(as: ReentrantEcho.self)))
    }

    @Test func anObserverThatRemovesItsComponentMidDeliveryEndsIt() throws {
        // "drop" removes the component (no close first): the connection's
        // last reference goes inside the frame's observer, while the
        // delivery loop has more frames buffered.
        let (app, server) = try reentrantEcho()
        let peer = try app.connect(port: 7200)
        peer.write("a\ndrop\nb\nc\n")
        #expect(peer.receivedText == "a\ndrop\n")
        #expect(server.clients.count == 0)
        #expect(server.log.commands == 2)
        // The app goes on.
        let other = try app.connect(port: 7200)
        other.write("x\n")
        #expect(other.receivedText == "x\n")
    }

    @Test func anObserverThatClosesAbortsOrDecodesAgainMidDelivery() throws {
        let (app, server) = try reentrantEcho()
        let closing = try app.connect(port: 7200)
        closing.write("a\nclose\nb\n")
        #expect(closing.receivedText == "a\nclose\n")
        #expect(closing.isClosedByApp)
        let aborting = try app.connect(port: 7200)
        aborting.write("a\nabort\nb\n")
        #expect(aborting.isClosedByApp)
        let twice = try app.connect(port: 7200)
        twice.write("again\nb\n")
        #expect(twice.receivedText == "again\nb\n")
        #expect(app.diagnostics.map(\.code) == [.framesAlreadyDecoded])
        #expect(server.log.commands == 6)
    }

    @Test func pausingAndResumingInsideAnObserverKeepsTheOrder() throws {
        let (app, server) = try reentrantEcho()
        let peer = try app.connect(port: 7200)
        peer.write("a\nblink\nb\nc\n")
        app.advance(by: .zero)
        #expect(peer.receivedText == "a\nblink\nb\nc\n")
        #expect(server.log.lastConnection?.bufferedInputBytes == 0)
    }

    @Test func aConnectionThatGoesWhileItsFramesWaitForTheirTurn() throws {
        // "pause" holds the rest; resuming schedules them for the next
        // turn; the component goes before that turn comes.
        let (app, server) = try reentrantEcho()
        let peer = try app.connect(port: 7200)
        peer.write("pause\nb\nc\n")
        #expect(peer.receivedText == "pause\n")
        let connection = try #require(server.log.lastConnection)
        #expect(connection.bufferedInputBytes == 4)
        connection.resumeReading()
        server.removeAll()
        app.advance(by: .zero)
        #expect(peer.receivedText == "pause\n")
        #expect(server.log.commands == 1)
    }

    @Test func aDecoderErrorWhoseObserverWritesThenRemovesTheComponent() throws {
        // The frames before the error are delivered; the errors observer
        // writes a last reply and removes the component (the connection's
        // last reference) while the delivery reports the failure.
        let (app, server) = try reentrantEcho()
        let peer = try app.connect(port: 7200)
        peer.write("a\n123456789\nb\n")
        #expect(peer.receivedText.hasPrefix("a\n"))
        #expect(server.clients.count == 0)
        #expect(server.log.entries == ["frameTooLarge"])
        let other = try app.connect(port: 7200)
        other.write("x\n")
        #expect(other.receivedText == "x\n")
    }

    @Test func aSinkThatGoesAwayWhileFullLetsTheFramesGoOn() throws {
        // A child's records relayed to a connection that does not read:
        // the frames wait on the connection (the sink); the connection's
        // component goes while they wait. Nothing is left to wait for: the
        // frames go on from the next turn (nowhere to write them), and the
        // child's exit is reported. (Found by the second reader: they
        // waited for ever, the removed connection staying full, since the
        // simulated peer still holds it and reads nothing.)
        var script: ScriptedProcess?
        let app = TestApp(root: WeakRelay()) { app in
            script = app.scriptProcess("producer") { run in
                for index in 0..<40 { run.writeOutput(Array(repeating: UInt8(index), count: 64 * 1024)) }
                run.exit(status: 0)
            }
        }
        let relay = try #require(app.root(as: WeakRelay.self))
        let peer = try app.connect(port: 7300)
        peer.stopReading(window: 0)
        try relay.start()
        let run = try #require(script?.runs.first)
        #expect(run.isOutputPaused)
        #expect(relay.log.commands < 40)
        for id in relay.clients.ids { relay.clients.remove(id) }
        #expect(relay.log.commands < 40)
        app.advance(by: .zero)
        #expect(relay.log.commands == 40)
        #expect(relay.log.entries == ["exit"])
        #expect(!run.isOutputPaused)
    }

    @Test func aSinkThatClosesWhileFullLetsTheFramesGoOn() throws {
        // As above, but the app aborts the connection and keeps its
        // component: a full queue that closes holds nothing back (it sends
        // didBecomeWritable), and the frames' writes say `.closed`.
        var script: ScriptedProcess?
        let app = TestApp(root: WeakRelay()) { app in
            script = app.scriptProcess("producer") { run in
                for index in 0..<40 { run.writeOutput(Array(repeating: UInt8(index), count: 64 * 1024)) }
                run.exit(status: 0)
            }
        }
        let relay = try #require(app.root(as: WeakRelay.self))
        let peer = try app.connect(port: 7300)
        peer.stopReading(window: 0)
        try relay.start()
        let run = try #require(script?.runs.first)
        #expect(run.isOutputPaused)
        let connection = try #require(relay.log.lastConnection)
        #expect(connection.isFull)
        let written = relay.log.commands
        connection.abort()
        app.advance(by: .zero)
        #expect(relay.log.commands == 40)
        #expect(relay.log.entries == ["exit"])
        #expect(relay.results.dropFirst(written).allSatisfy { $0 == .closed })
        #expect(!connection.isFull)
        #expect(relay.clients.count == 1)
    }

    @Test func aChildThatExitsWhileItsFramesArePausedDeliversThemOnResume() throws {
        let app = TestApp(root: PausingProducer()) { app in
            app.scriptProcess("producer") { run in
                run.writeOutput(Array("one\npause\ntwo\nthree\n".utf8))
                run.exit(status: 0)
            }
        }
        let producer = try #require(app.root(as: PausingProducer.self))
        app.advance(by: .zero)
        #expect(producer.log.entries == ["one", "pause"])
        producer.producer.resumeReading()
        app.advance(by: .zero)
        #expect(producer.log.entries == ["one", "pause", "two", "three", "exit"])
    }
}

/// Echoes lines; some lines re-enter the connection from the observer.
struct ReentrantEcho: Component {
    let listener = TCPServer(port: 7200)
    let clients = InstanceComponent<ReentrantClient>()
    let log = Log()
    var observers: Void {
        listener += { connection in clients.add { ReentrantClient(connection: connection, log: log) } }
        clients.forward(\.leave) += { id, _ in clients.remove(id) }
        clients.forward(\.connection.errors) += { id, error in
            log.entries.append("\(error.kind)")
            clients.remove(id)
        }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }

    func removeAll() { for id in clients.ids { clients.remove(id) } }
}

struct ReentrantClient: Component {
    let connection: TCPConnection
    let log: Log
    let leave = Emitter<Void>()
    var observers: Void {
        log.lastConnection = connection
        connection.frames(using: LineDecoder(maximumLength: 8)) += { line in
            log.commands += 1
            connection.write(line)
            connection.write("\n")
            switch String(buffer: line) {
            case "drop": leave.send(())
            case "close": connection.close()
            case "abort": connection.abort()
            case "again": _ = connection.frames(using: LineDecoder())
            case "blink":
                connection.pauseReading()
                connection.resumeReading()
            case "pause": connection.pauseReading()
            default: break
            }
        }
    }
}

/// Relays `producer`'s 64 KiB records to the first client, paced by it,
/// without keeping it.
struct WeakRelay: Component {
    let listener = TCPServer(port: 7300)
    let clients = InstanceComponent<PassiveClient>()
    let producer = ChildProcess("producer")
    let log = Log()
    var observers: Void {
        listener += { connection in
            clients.add { PassiveClient(connection: connection) }
            log.lastConnection = connection
        }
        producer.didExit += { _ in log.entries.append("exit") }
    }

    /// What each write of a record said.
    let results = WriteResults()

    func start() throws {
        weak let connection = log.lastConnection
        producer.frames(using: FixedLengthDecoder(length: 64 * 1024), pausedWhileFull: connection) += { record in
            log.commands += 1
            results.all.append(connection?.write(record) ?? .closed)
        }
        try producer.start()
    }
}

@MainActor
final class WriteResults {
    var all: [WriteResult] = []
    func dropFirst(_ count: Int) -> ArraySlice<WriteResult> { all.dropFirst(count) }
}

/// Records the child's lines; `pause` pauses reading its output.
struct PausingProducer: Component {
    let producer = ChildProcess("producer", startsWithComponent: true)
    let log = Log()
    var observers: Void {
        producer.frames(using: LineDecoder()) += { line in
            let text = String(buffer: line)
            log.entries.append(text)
            if text == "pause" { producer.pauseReading() }
        }
        producer.didExit += { _ in log.entries.append("exit") }
    }
}
