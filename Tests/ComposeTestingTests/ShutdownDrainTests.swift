import ComposeApp
import ComposeTesting
import Testing

/// A shutdown drains the app's connections before it tears the tree down
/// (ShutdownCoordinator's phases), on virtual time: listeners close
/// first, connections are told (`willDrain`), the app runs on until they
/// close or the drain timeout passes, then the rest closes.
@MainActor
@Suite struct ShutdownDrainTests {
    static let goodbye = "server shutting down"

    /// A TestApp of a `DrainServer` with a 3 s drain in a 10 s deadline,
    /// whose phase changes are recorded in `phases`.
    func drainingApp(_ goodbye: DrainClient.Goodbye, phases: Journal = Journal(), drainTimeout: Duration = .seconds(3), deadline: Duration = .seconds(10)) -> TestApp {
        TestApp(
            root: DrainServer(goodbye: goodbye),
            configuration: StartupConfiguration(shutdownDeadline: deadline, drainTimeout: drainTimeout),
            setUp: { app in
                app.context.shutdown.didChangePhase += { phases.entries.append("\($0) at \(app.now)") }
            }
        )
    }

    @Test func aClientThatLeavesWhenToldEndsTheDrainAsSoonAsItCloses() throws {
        let phases = Journal()
        let app = drainingApp(.only, phases: phases)
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        #expect(peer.readLines() == [Self.goodbye])
        #expect(!peer.isClosedByApp)
        #expect(app.context.shutdown.phase == .draining)
        #expect(app.context.shutdown.connectionCount == 1)

        app.advance(by: .milliseconds(1_500))
        #expect(!app.hasExited)
        peer.close()
        #expect(app.exitStatus == 0)
        #expect(app.now == .milliseconds(1_500))
        #expect(phases.entries == ["running at 0.0 seconds", "draining at 0.0 seconds", "closing at 1.5 seconds", "finished at 1.5 seconds"])
    }

    @Test func underSystemdTheDrainIsAStatusAndExtendsTheStopTimeoutByTheDeadline() throws {
        let app = TestApp(
            root: DrainServer(goodbye: .only),
            configuration: StartupConfiguration(shutdownDeadline: .seconds(10), drainTimeout: .seconds(3)),
            setUp: { $0.runsUnderSystemd() }
        )
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        #expect(app.systemdNotifications == [
            "READY=1", "STOPPING=1", "STATUS=Draining 1 connection", "EXTEND_TIMEOUT_USEC=10000000",
        ])
        peer.close()
        #expect(app.exitStatus == 0)
        #expect(app.systemdNotifications.dropFirst(4) == ["STATUS=Closing"])
    }

    @Test func aClientThatIgnoresTheGoodbyeIsClosedAtTheDrainTimeoutExactly() throws {
        let phases = Journal()
        let app = drainingApp(.only, phases: phases)
        let polite = try app.connect(port: 7070)
        let deaf = try app.connect(port: 7070)
        app.send(.terminate)
        #expect(deaf.readLines() == [Self.goodbye])
        polite.close()
        #expect(app.context.shutdown.connectionCount == 1)

        app.advance(by: .seconds(3) - .nanoseconds(1))
        #expect(!deaf.isClosedByApp)
        #expect(app.context.shutdown.phase == .draining)
        app.advance(by: .nanoseconds(1))
        #expect(deaf.isClosedByApp)
        #expect(app.exitStatus == 0)                     // the drain timeout is not the forced deadline
        #expect(phases.entries.suffix(2) == ["closing at 3.0 seconds", "finished at 3.0 seconds"])
    }

    @Test func theListenerClosesFirstSoANewClientIsRefusedDuringTheDrain() throws {
        let app = drainingApp(.only)
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        #expect(app.context.shutdown.phase == .draining)
        #expect {
            try app.connect(port: 7070)
        } throws: { error in
            (error as? LoopError)?.kind == .connectionRefused
        }
        // Nor does it listen again during the shutdown.
        let server = try #require(app.root(as: DrainServer.self))
        #expect {
            try app.run { try server.listener.listen() }
        } throws: { error in
            (error as? LoopError)?.kind == .cancelled
        }
        // The connection accepted before is still served meanwhile.
        peer.write("still here\n")
        #expect(peer.readLines() == [Self.goodbye, "STILL HERE"])
    }

    @Test func theLoopRunsOnDuringTheDrainTimersIncluded() throws {
        // A 5 s drain: at 3 s a 3 s one would close the client first.
        let app = drainingApp(.countdown, drainTimeout: .seconds(5))
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        #expect(peer.readLines() == [Self.goodbye])
        app.advance(by: .seconds(1))
        #expect(peer.readLines() == ["2"])
        app.advance(by: .seconds(1))
        #expect(peer.readLines() == ["1"])
        #expect(!peer.isClosedByApp)
        app.advance(by: .seconds(1))
        #expect(peer.readLines() == ["0"])
        #expect(peer.isClosedByApp)
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(3))
    }

    @Test func anAppWithNoConnectionDoesNotWaitAtAll() {
        let phases = Journal()
        let app = drainingApp(.only, phases: phases)
        app.send(.terminate)
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)
        #expect(phases.entries == ["running at 0.0 seconds", "draining at 0.0 seconds", "closing at 0.0 seconds", "finished at 0.0 seconds"])
    }

    @Test func aConnectionWhoseWillDrainNobodyObservesIsClosedAtOnceAfterItsQueue() throws {
        // ShoutServer says goodbye in willShutDown and observes no willDrain.
        let app = TestApp(root: ShoutServer())
        let peer = try app.connect(port: 7070)
        _ = peer.readLines()
        app.send(.terminate)
        #expect(peer.readLines() == ["Goodbye!"])
        #expect(peer.isClosedByApp)
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)
    }

    @Test func theShutdownDeadlineCutsADrainLongerThanIt() throws {
        let app = drainingApp(.only, drainTimeout: .seconds(30), deadline: .seconds(4))
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 3)                     // StartupConfiguration.forcedExitStatus
        #expect(app.now == .seconds(4))
        #expect(peer.isClosedByApp)
    }

    @Test func aSecondSignalDuringTheDrainExitsAtOnce() throws {
        let app = drainingApp(.only)
        _ = try app.connect(port: 7070)
        app.send(.terminate)
        app.advance(by: .seconds(1))
        #expect(!app.hasExited)
        app.send(.interrupt)
        #expect(app.exitStatus == 128 + ProcessSignal.Name.interrupt.rawValue)
        #expect(app.now == .seconds(1))
    }

    @Test func aSleepGoesOnDuringTheDrain() async throws {
        let phases = Journal()
        let app = drainingApp(.afterASleep, phases: phases)
        let peer = try app.connect(port: 7070)
        app.send(.terminate)
        await app.advance(by: .seconds(2))
        #expect(peer.readLines() == [Self.goodbye, "slept"])
        #expect(peer.isClosedByApp)
        #expect(app.exitStatus == 0)
        #expect(phases.entries.last == "finished at 1.0 seconds")
    }
}

extension ShutdownDrainTests {
    @Test func aSleepThatOutlastsTheDrainEndsWhenTheTreeIsTornDown() async throws {
        let app = drainingApp(.sleepsTooLong)
        let server = try #require(app.root(as: DrainServer.self))
        _ = try app.connect(port: 7070)
        app.send(.terminate)
        await app.advance(by: .seconds(2))
        #expect(server.journal.entries == [])
        await app.advance(by: .seconds(1))
        #expect(server.journal.entries == ["CancellationError at 3.0 seconds"])
        #expect(app.exitStatus == 0)
    }
}

/// Listens on 7070; each client gets a `DrainClient` that answers lines in
/// capitals and says goodbye when the app drains.
struct DrainServer: Component {
    let goodbye: DrainClient.Goodbye
    let listener = TCPServer(port: 7070)
    let clients = InstanceComponent<DrainClient>()
    let journal = Journal()

    var observers: Void {
        listener += { connection in
            clients.add { DrainClient(connection: connection, goodbye: goodbye, journal: journal) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
    }
}

struct DrainClient: Component {
    /// What the client does when the app drains, after its goodbye line.
    enum Goodbye {
        /// Nothing: closing is the peer's business.
        case only
        /// Writes 2, 1, 0 a second apart, then closes.
        case countdown
        /// Sleeps a second on the app's clock, writes `slept`, closes.
        case afterASleep
        /// Sleeps a minute; notes in the journal how the sleep ended.
        case sleepsTooLong
    }

    let connection: TCPConnection
    let goodbye: Goodbye
    let journal: Journal
    let countdown = LoopTimer(every: .seconds(1), startsWithComponent: false)
    let remaining = Journal()

    var observers: Void {
        connection.lines += { line in connection.writeLine(line.uppercased()) }
        connection.willDrain += {
            connection.writeLine(ShutdownDrainTests.goodbye)
            switch goodbye {
            case .only:
                break
            case .countdown:
                countdown.start()
            case .afterASleep:
                Task { @MainActor in
                    try await Application.clock.sleep(for: .seconds(1))    // the app clock: virtual time
                    connection.writeLine("slept")
                    connection.close()
                }
            case .sleepsTooLong:
                Task { @MainActor in
                    do {
                        try await Application.clock.sleep(for: .seconds(60))   // the app clock: virtual time
                        journal.entries.append("slept")
                    } catch {
                        journal.entries.append("\(type(of: error)) at \(Application.clock.now.offset)")
                    }
                }
            }
        }
        countdown += {
            remaining.entries.append("tick")
            let left = 3 - remaining.entries.count
            connection.writeLine("\(left)")
            if left == 0 { connection.close() }
        }
    }
}
