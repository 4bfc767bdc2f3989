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

    @Test func openMovesASessionToARouteAndBadRoutesNameTheChoices() throws {
        let (app, _, _) = try chat()
        #expect(app.inspect("open server/sessions/2/room") == "opened server/sessions/2/room")
        let reply = try json(app.inspect("tree --json"))
        let components = try #require((reply["tree"] as? [String: Any])?["components"] as? [[String: Any]])
        let bob = components.first { $0["path"] as? String == "chatApp.server.sessions.2" }
        // Opening replaces each router's stack (ComponentTree.open's default).
        #expect(bob?["routes"] as? [String] == ["room"])
        let refusal = app.inspect("open server/sessions/2/garden")
        #expect(refusal.hasPrefix("error: Unknown route segment \"garden\""), "\(refusal)")
        #expect(refusal.hasSuffix("(routeFailed)"))
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
