@testable import ComposeApp
import ComposeTesting
import Foundation
import Testing
@testable import ComposeChat

/// Inspecting the chat example on a test context (`TestApp.inspect(_:)`):
/// the same replies as through the socket, on virtual time.
@MainActor
@Suite struct ChatInspectionTests {
    /// ada in the room `lab`, bob in the lobby.
    func chat() throws -> (TestApp, ada: TestPeer, bob: TestPeer) {
        let app = TestApp(ChatApp.self)
        let ada = try app.connect(port: 7070)
        ada.write("ada\n/join lab\n")
        let bob = try app.connect(port: 7070)
        bob.write("bob\n")
        app.runUntilIdle()
        _ = ada.readLines()
        _ = bob.readLines()
        return (app, ada, bob)
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theTreeShowsBothSessionsAtTheirPathsWithTheirRoutes() throws {
        let (app, _, _) = try chat()
        let reply = try json(app.inspect("tree --json"))
        let tree = try #require(reply["tree"] as? [String: Any])
        let components = try #require(tree["components"] as? [[String: Any]])
        let sessions = components.filter { $0["type"] as? String == "SessionComponent" }
        #expect(sessions.map { $0["path"] as? String } == ["chatApp.server.sessions.1", "chatApp.server.sessions.2"])
        #expect(sessions.map { $0["routes"] as? [String] } == [["lobby", "room"], ["lobby"]])
        let container = components.first { $0["path"] as? String == "chatApp.server.sessions" }?["container"] as? [String: Any]
        #expect(container?["instances"] as? Int == 2)
        #expect(container?["kind"] as? String == "InstanceComponent")
    }

    /// The emitters a component's observers make on demand, which no
    /// stored property holds, by their real names: the connection's
    /// `lines`, the container's `forward(\.connection.didClose)`.
    @Test func emittersMadeOnDemandShowTheirRealNames() throws {
        let (app, ada, _) = try chat()
        let reply = try json(app.inspect("tree --json"))
        ada.write("hello\n")
        app.runUntilIdle()
        let components = try #require((reply["tree"] as? [String: Any])?["components"] as? [[String: Any]])
        func emitters(at path: String) -> [String] {
            let component = components.first { $0["path"] as? String == path }
            return (component?["emitters"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        let session = emitters(at: "chatApp.server.sessions.1")
        #expect(session.contains("connection.lines"), "\(session)")
        #expect(!session.contains("<emitter>"), "\(session)")
        let container = emitters(at: "chatApp.server.sessions")
        #expect(container.contains("forward(\\.connection.didClose)"), "\(container)")
        #expect(!container.contains("<emitter>"), "\(container)")
        // Event paths use the same names.
        let inspector = app.inspector()
        inspector.send("follow chatApp.server.sessions.1.connection")
        ada.write("again\n")
        app.runUntilIdle()
        #expect(inspector.lines.contains { $0.hasSuffix("chatApp.server.sessions.1.connection.lines sent again") }, "\(inspector.lines)")
        inspector.close()
    }

    @Test func theTextTreeFitsEightyColumnsAndCountsSends() throws {
        let (app, ada, _) = try chat()
        _ = app.inspect("tree")
        ada.write("hello\n")
        app.runUntilIdle()
        let text = app.inspect("tree")
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(text)")
        #expect(lines.contains { $0.contains("├─ 1: SessionComponent  routes lobby > room") }, "\(text)")
        #expect(lines.contains { $0.contains("└─ 2: SessionComponent  routes lobby") }, "\(text)")
        // TestApp traces events from the start, so sends are counted from 0s.
        #expect(lines.contains { $0.contains("· say  1 obs  1 sent  last hello") }, "\(text)")
    }

    @Test func aFollowerSeesAChatMessageAndNothingOutsideItsPath() throws {
        let (app, ada, bob) = try chat()
        let inspector = app.inspector()
        inspector.send("follow chatApp.server.sessions.1.room")
        ada.write("hello lab\n")
        bob.write("/who\n")
        app.runUntilIdle()
        #expect(inspector.lines.first == "following chatApp.server.sessions.1.room (Ctrl-C to stop)")
        #expect(inspector.lines.contains { $0.hasSuffix("chatApp.server.sessions.1.room.say sent hello lab") }, "\(inspector.lines)")
        #expect(!inspector.lines.contains { $0.contains("sessions.2") }, "\(inspector.lines)")
        inspector.close()
        ada.write("after\n")
        app.runUntilIdle()
        #expect(!inspector.lines.contains { $0.contains("after") })
    }

    @Test func aFollowerSeesDiagnostics() throws {
        let (app, _, _) = try chat()
        let inspector = app.inspector()
        inspector.send(#"{"v":1,"command":"follow"}"#)
        app.run { app.context.report(Diagnostic(Diagnostic.Code(rawValue: "testing"), "a test diagnostic", path: "chatApp.server")) }
        let event = try json(try #require(inspector.jsonLines.last))["event"] as? [String: Any]
        #expect(event?["kind"] as? String == "diagnostic")
        #expect(event?["code"] as? String == "testing")
        #expect(event?["path"] as? String == "chatApp.server")
    }

    /// `open` changes the app: refused unless it allows changes, with how
    /// to allow them; nothing moves.
    @Test func openIsRefusedUnlessTheAppAllowsChangesAndSaysHowToAllowThem() throws {
        let (app, _, _) = try chat()
        let refusal = app.inspect("open server/sessions/2/room")
        #expect(refusal == "error: open changes the app, which inspection may not do unless the app allows it. To allow it, build the app with StartupConfiguration(inspectionAllowsChanges: true), or start it with --inspection-allows-changes true (or CHAT_INSPECTION_ALLOWS_CHANGES=true in its environment). (notAllowed)")
        let inspector = app.inspector()
        inspector.send(#"{"v":1,"command":"open","route":"server/sessions/2/room"}"#)
        inspector.close()
        let reply = try json(try #require(inspector.jsonLines.first))
        #expect(reply["ok"] as? Bool == false)
        #expect((reply["error"] as? [String: Any])?["code"] as? String == "notAllowed")
        let components = try #require((try self.json(app.inspect("tree --json"))["tree"] as? [String: Any])?["components"] as? [[String: Any]])
        let bob = components.first { $0["path"] as? String == "chatApp.server.sessions.2" }
        #expect(bob?["routes"] as? [String] == ["lobby"])
        // Looking is never refused.
        #expect(app.inspect("counting on") == "send counting on")
    }

    @Test func withTheSwitchOpenMovesASessionToARouteAndBadRoutesNameTheChoices() throws {
        let app = TestApp(ChatApp.self, config: ["inspectionAllowsChanges": true])
        let bob = try app.connect(port: 7070)
        bob.write("bob\n")
        app.runUntilIdle()
        #expect(app.inspect("open server/sessions/1/room") == "opened server/sessions/1/room")
        let reply = try json(app.inspect("tree --json"))
        let components = try #require((reply["tree"] as? [String: Any])?["components"] as? [[String: Any]])
        let session = components.first { $0["path"] as? String == "chatApp.server.sessions.1" }
        // Opening replaces each router's stack (ComponentTree.open's default).
        #expect(session?["routes"] as? [String] == ["room"])
        let refusal = app.inspect("open server/sessions/1/garden")
        #expect(refusal.hasPrefix("error: Unknown route segment \"garden\""), "\(refusal)")
        #expect(refusal.hasSuffix("(routeFailed)"))
    }

    /// The newcomer's case: `open server/sessions/1/lobby` moved a user
    /// out of a room and the room was never told. Allowed, `open` routes
    /// through the routers' public API, so the app's own observer of the
    /// session's `router.didChangePath` runs and tells the room.
    @Test func anAllowedOpenRunsTheAppsObserversOfItsRouters() throws {
        let app = TestApp(root: ChatApp(), configuration: StartupConfiguration(inspectionAllowsChanges: true))
        let ada = try app.connect(port: 7070)
        ada.write("ada\n/join lab\n")
        let bob = try app.connect(port: 7070)
        bob.write("bob\n/join lab\n")
        app.runUntilIdle()
        _ = ada.readLines()
        _ = bob.readLines()
        #expect(app.inspect("open server/sessions/1/lobby") == "opened server/sessions/1/lobby")
        #expect(ada.readLines() == ["You left lab."])
        #expect(bob.readLines() == ["* ada left lab"])
        ada.write("/who\n")
        app.runUntilIdle()
        #expect(ada.readLines() == ["Here: ada, bob"])
    }

    /// A router's observers run for an inspection's `open` as for the
    /// app's own `router.push`.
    @Test func anAllowedOpenIsSeenByObserversOfTheRoutersEmitters() {
        struct Screen: Component {
            let ping = SignalEmitter()
            var observers: Void { None }
        }
        @MainActor final class Seen {
            var values: [String] = []
        }
        struct Screens: RouterComponent {
            let home = Screen()
            let settings = Screen()
            let router = Router(start: \Self.home)
            let seen = Seen()
            var observers: Void {
                router.didChangePath += { seen.values.append("path \($0.label)") }
                router.didReplace += { seen.values.append("replace \($0.label)") }
                settings.didAppear += { seen.values.append("settings appeared") }
            }
        }
        let refusing = TestApp(root: Screens())
        #expect(refusing.inspect("open settings").hasSuffix("(notAllowed)"))
        #expect(refusing.root(as: Screens.self)?.seen.values == [])
        let app = TestApp(root: Screens(), configuration: StartupConfiguration(inspectionAllowsChanges: true))
        #expect(app.inspect("open settings") == "opened settings; current route settings")
        #expect(app.root(as: Screens.self)?.seen.values == ["settings appeared", "replace settings", "path settings"])
    }

    /// What the app writes shows in `follow`, at the connection's path,
    /// with times since the follow began.
    @Test func aFollowerSeesWhatTheAppWritesToAConnection() throws {
        let (app, ada, _) = try chat()
        let inspector = app.inspector()
        inspector.send("follow chatApp.server.sessions.1.connection")
        app.advance(by: .milliseconds(1_500))
        ada.write("/who\n")
        app.runUntilIdle()
        #expect(ada.readLines() == ["Here: ada"])
        #expect(inspector.lines.contains("  +1.500s chatApp.server.sessions.1.connection.lines sent /who"), "\(inspector.lines)")
        #expect(inspector.lines.contains(#"  +1.500s chatApp.server.sessions.1.connection wrote 10 bytes "Here: ada\n""#), "\(inspector.lines)")
        let json = app.inspector()
        json.send(#"{"v":1,"command":"follow","path":"server.sessions.1"}"#)
        ada.write("/who\n")
        app.runUntilIdle()
        let wrote = try #require(json.jsonLines.compactMap { try? self.json($0)["event"] as? [String: Any] }.first { $0["kind"] as? String == "wrote" })
        #expect(wrote["path"] as? String == "chatApp.server.sessions.1.connection")
        #expect(wrote["value"] as? String == #"10 bytes "Here: ada\n""#)
        inspector.close()
        json.close()
    }

    /// A write is an event only while the app records events (someone
    /// follows): before and after, nothing is made for it.
    @Test func writesAreEventsOnlyWhileSomeoneFollows() throws {
        let (app, ada, _) = try chat()
        app.context.tracesEvents = false
        var wrote: [AppEvent] = []
        let watching = app.context.events.observe { event in
            if event.kind == .wrote { wrote.append(event) }
        }
        ada.write("/who\n")
        app.runUntilIdle()
        #expect(wrote.isEmpty)
        let inspector = app.inspector()
        inspector.send("follow server.sessions.1")
        ada.write("/who\n")
        app.runUntilIdle()
        #expect(wrote.map(\.path) == ["chatApp.server.sessions.1.connection"])
        inspector.close()
        ada.write("/who\n")
        app.runUntilIdle()
        #expect(wrote.count == 1)
        watching.cancel()
    }

    @Test func aFollowerAskingForUTCGetsWallClockTimes() throws {
        let (app, ada, _) = try chat()
        let inspector = app.inspector()
        inspector.send("follow chatApp.server.sessions.1.room --utc")
        ada.write("hello lab\n")
        app.runUntilIdle()
        let line = try #require(inspector.lines.first { $0.hasSuffix("chatApp.server.sessions.1.room.say sent hello lab") })
        #expect(line.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z chatApp\.server\.sessions\.1\.room\.say sent hello lab/) != nil, "\(line)")
        inspector.close()
    }

    /// The tree shows the connection an emitter sent by its peer's
    /// address, not its type.
    @Test func theTreeShowsAConnectionByItsPeersAddress() throws {
        let (app, _, bob) = try chat()
        let text = app.inspect("tree")
        #expect(text.contains("· listener  1 obs  2 sent  last 127.0.0.1:\(bob.port)"), "\(text)")
        #expect(!text.contains("ComposeApp.TCPConnection"), "\(text)")
    }

    /// Cut at the request's width; a width of 0 (what `compose inspect`
    /// asks for into a pipe or a file) never cuts.
    @Test func theTextTreeIsCutAtTheRequestsWidthOrNotAtAll() throws {
        let (app, ada, _) = try chat()
        let long = String(repeating: "word ", count: 30) + "end"
        ada.write(long + "\n")
        app.runUntilIdle()
        let cut = app.inspect("tree").split(separator: "\n")
        #expect(cut.allSatisfy { $0.count <= 80 })
        #expect(cut.contains { $0.hasSuffix("…") })
        let narrow = app.inspect("tree --width 50").split(separator: "\n")
        #expect(narrow.allSatisfy { $0.count <= 50 })
        let whole = app.inspect("tree --width 0").split(separator: "\n")
        #expect(whole.contains { $0.count > 80 })
        #expect(whole.contains { $0.hasSuffix("last " + String(long.prefix(59)) + "…") || $0.hasSuffix("last " + long) }, "\(whole)")
    }

    @Test func theLoopReportOfATestAppListsTheConnectionsByComponent() throws {
        let (app, ada, bob) = try chat()
        let reply = try json(app.inspect("loop --json"))
        let loop = try #require(reply["loop"] as? [String: Any])
        #expect(loop["simulated"] as? Bool == true)
        let connections = try #require(loop["connections"] as? [[String: Any]])
        #expect(connections.map { $0["path"] as? String } == ["chatApp.server.sessions.1.connection", "chatApp.server.sessions.2.connection"])
        #expect(connections.map { $0["peer"] as? String } == ["127.0.0.1:\(ada.port)", "127.0.0.1:\(bob.port)"])
        #expect(loop["health"] is NSNull)
        let text = app.inspect("loop")
        #expect(text.contains("loop: lag not measured"), "\(text)")
    }

    @Test func aHealthReporterFillsTheLoopReportsHealth() throws {
        final class FixedHealth: LoopHealthReporting {
            func loopHealthReport() -> LoopHealth {
                LoopHealth(lagP50: .milliseconds(1), lagP99: .milliseconds(4), lagMax: .milliseconds(200), eventsPerSecond: 150, utilization: 0.04, window: .seconds(60), samples: 600)
            }
        }
        let (app, _, _) = try chat()
        app.context.loopHealthReporter = FixedHealth()
        let text = app.inspect("loop")
        #expect(text.contains("loop: lag p50 1.0 ms, p99 4.0 ms, max 200.0 ms; 150 events/s; 4% busy (60 s)"), "\(text)")
        let health = try json(app.inspect("loop --json"))["loop"].flatMap { ($0 as? [String: Any])?["health"] as? [String: Any] }
        #expect(health?["lagMax"] as? Double == 0.2)
        #expect(health?["samples"] as? Int == 600)
    }

    @Test func sendsAreCountedOnlyOnceSomeoneAsks() {
        struct Pinger: Component {
            let ping = SignalEmitter()
            var observers: Void { ping += {} }
        }
        let context = AppContext(name: "counting")
        let tree = ComponentTree(Pinger(), context: context)
        let ping = tree.root.value(as: Pinger.self)!.ping
        ping.send()
        #expect(context.treeReport().components[0].emitters[0].sends == nil)
        #expect(ping.observerCount == 1)
        context.countsSends = true
        ping.send()
        ping.send()
        #expect(context.treeReport().components[0].emitters[0].sends == 2)
        // The counter is an observer of the framework's, not the app's.
        #expect(ping.observerCount == 1)
        context.countsSends = false
        ping.send()
        #expect(context.treeReport().components[0].emitters[0].sends == 2)
    }

    @Test func supervisedChildrenShowTheirRestartsAndTheSupervisorItsStrategy() {
        struct Worker: Component {
            let crash = SignalEmitter()
            var observers: Void {
                crash += { fail(ComponentFailure(path: "worker", error: CancellationError())) }
            }
        }
        struct Crew: Component {
            let supervisor = Supervisor(strategy: .oneForAll, backoff: .immediate)
            let worker = Supervised(Worker())
            var observers: Void { None }
        }
        let app = TestApp(root: Crew())
        app.run { app.root(as: Crew.self)?.worker.component?.crash.send() }
        app.advance(by: .seconds(1))
        let text = app.inspect("tree")
        #expect(text.contains("crew: Crew  supervisor oneForAll"), "\(text)")
        #expect(text.contains("└─ worker: Supervised<Worker>  running, 1 restart"), "\(text)")
        let json = app.inspect("tree --json")
        #expect(json.contains(#""container":{"kind":"Supervised","contentType":"Worker","instances":1,"restarts":1}"#), "\(json)")
    }

    @Test func aSlowFollowerLosesEventsNotTheAppAndIsToldHowMany() throws {
        @MainActor final class SlowOutput: InspectionOutput {
            var replies: [InspectionJSON] = []
            var queuedBytes = 0
            func write(_ reply: InspectionJSON) { replies.append(reply) }
        }
        struct Talker: Component {
            let said = Emitter<Int>()
            var observers: Void { None }
        }
        let context = AppContext(name: "talker")
        let tree = ComponentTree(Talker(), context: context)
        let said = tree.root.value(as: Talker.self)!.said
        let output = SlowOutput()
        let session = InspectionSession(inspection: context.inspection, output: output)
        session.receive("follow")
        var made = 0
        let counting = context.events.observe { _ in made += 1 }
        said.send(1)
        output.queuedBytes = InspectionSession.followQueueLimit
        for value in 2...11 { said.send(value) }
        // The first event past the limit is dropped; then the session lets
        // go of tracing, so the app makes no more events only to drop them.
        #expect(made == 2)
        #expect(session.dropped == 1)
        // The queue drains (the connection's didBecomeWritable): the
        // session holds tracing again and counts the 9 sends it missed.
        output.queuedBytes = 0
        session.outputDrained()
        said.send(12)
        #expect(made == 3)
        let tail = output.replies.suffix(3).map(\.text)
        #expect(tail[0].contains(#""event":{"time":0,"kind":"sent","path":"talker.said","value":"1"}"#), "\(tail)")
        #expect(tail[1] == #"{"v":1,"dropped":10,"totalDropped":10,"text":"… 10 events dropped: this client read too slowly"}"#)
        #expect(tail[2].contains(#""value":"12""#))
        counting.cancel()
        #expect(context.events.observerCount == 1)
        session.end()
        #expect(context.events.observerCount == 0)
    }
}
