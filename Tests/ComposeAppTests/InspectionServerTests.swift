@_spi(Testing) @testable import ComposeApp
import Foundation
import Testing

/// A component with something to see: an emitter, a store, a router.
struct InspectedComponent: RouterComponent {
    let ping = Emitter<String>()
    @Store var count = 0
    let home = Screen()
    let settings = Screen()
    let router = Router(start: \Self.home)

    struct Screen: Component {
        let tap = SignalEmitter()
        var observers: Void { None }
    }

    var observers: Void {
        ping += { _ in count += 1 }
    }
}

/// The inspection server on a real Unix socket, in this process: the
/// socket's file and permissions, the peer check, requests and the follow
/// stream. "Another user" is an injected uid: a test cannot switch users,
/// so the server is told to admit only a uid that is not ours.
@MainActor
@Suite(.serialized, .liveLoop) struct InspectionServerTests {
    /// A client's connection and the lines it received.
    @MainActor
    final class Client {
        let connection: TCPConnection
        var lines: [String] = []
        var closed = false

        init(_ connection: TCPConnection) {
            self.connection = connection
            connection.lines += { [unowned self] line in lines.append(line) }
            connection.didClose += { [unowned self] _ in closed = true }
            connection.start()
        }
    }

    func connect(_ path: String) throws -> Client {
        var result: Result<TCPConnection, LoopError>?
        TCPConnection.connect(unixPath: path) { result = $0 }
        #expect(LoopDriver.run(until: { result != nil }))
        return Client(try #require(try result?.get()))
    }

    /// A client that asked to follow `path` and got the answer.
    func follower(of path: String, at socket: String) throws -> Client {
        let client = try connect(socket)
        client.connection.writeLine(#"{"v":1,"command":"follow","path":"\#(path)"}"#)
        #expect(LoopDriver.run(until: { !client.lines.isEmpty }))
        return client
    }

    /// Runs `body` with an inspected tree and a server in a fresh directory.
    func withServer(allowedUID: UInt32 = geteuid(), _ body: (InspectionServer, ComponentTree, String) throws -> Void) throws {
        let context = try #require(AppContext.current)
        try withSocketDirectory { parent in
            let directory = parent + "/compose"
            let tree = ComponentTree(InspectedComponent(), context: context)
            tree.activate()
            let server = try InspectionServer(context: context, directory: directory, name: "inspected", allowedUID: allowedUID)
            defer {
                server.close()
                tree.destroy()
                LoopDriver.settle()
            }
            try body(server, tree, directory)
        }
    }

    @Test func theSocketIsOwnerOnlyInAnOwnerOnlyDirectoryAndGoesWithTheServer() throws {
        try withServer { server, _, directory in
            #expect(server.path == directory + "/inspected.\(getpid()).sock")
            #expect(fileMode(directory).map { $0 & 0o777 } == 0o700)
            #expect(fileMode(server.path).map { $0 & 0o777 } == 0o600)
            server.close()
            #expect(fileMode(server.path) == nil)
        }
    }

    @Test func startingRemovesTheSocketsOfAppsThatAreGone() throws {
        let context = try #require(AppContext.current)
        try withSocketDirectory { parent in
            let directory = parent + "/compose"
            #expect(mkdir(directory, 0o700) == 0)
            try makeStaleSocketFile(directory + "/crashed.999999.sock")
            let server = try InspectionServer(context: context, directory: directory, name: "fresh")
            defer { server.close() }
            let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(names == ["fresh.\(getpid()).sock"])
        }
    }

    @Test func aClientAsksForTheTreeAndGetsOneJSONLine() throws {
        try withServer { server, _, _ in
            let client = try connect(server.path)
            defer { client.connection.abort() }
            client.connection.writeLine(#"{"v":1,"command":"tree"}"#)
            #expect(LoopDriver.run(until: { !client.lines.isEmpty }))
            let reply = try InspectionJSON.parse(try #require(client.lines.first))
            #expect(reply["ok"] == .bool(true))
            guard case .array(let components)? = reply["tree"]?["components"] else {
                Issue.record("no components: \(client.lines)")
                return
            }
            let paths = components.compactMap { $0["path"]?.stringValue }
            #expect(paths == ["inspected", "inspected.home", "inspected.settings"])
            #expect(components.first?["routes"] == .array([.string("home")]))
            #expect(server.clientCount == 1)
        }
    }

    @Test func aClientOfAnotherUserIsRefusedAndDisconnected() throws {
        // The server admits only `someoneElse`; this process is not them.
        let someoneElse: UInt32 = geteuid() == 4242 ? 4243 : 4242
        try withServer(allowedUID: someoneElse) { server, _, _ in
            let client = try connect(server.path)
            client.connection.writeLine(#"{"v":1,"command":"tree"}"#)
            #expect(LoopDriver.run(until: { client.closed }))
            #expect(client.lines.count == 1, "\(client.lines)")
            let reply = try InspectionJSON.parse(try #require(client.lines.first))
            #expect(reply["ok"] == .bool(false))
            #expect(reply["error"]?["code"] == .string("refused"))
            #expect(reply["error"]?["message"]?.stringValue?.contains("uid \(geteuid()) may not inspect") == true)
            #expect(server.clientCount == 0)
        }
    }

    @Test func aFollowerGetsTheSendsUnderItsPathAndNothingElse() throws {
        try withServer { server, tree, _ in
            let client = try follower(of: "inspected.home", at: server.path)
            defer { client.connection.abort() }
            let root = try #require(tree.root.value(as: InspectedComponent.self))
            root.ping.send("not followed")
            root.home.tap.send()
            root.settings.tap.send()
            #expect(LoopDriver.run(until: { client.lines.count >= 2 }))
            LoopDriver.settle()
            #expect(client.lines.count == 2, "\(client.lines)")
            let event = try InspectionJSON.parse(client.lines[1])["event"]
            #expect(event?["path"] == .string("inspected.home.tap"))
            #expect(event?["kind"] == .string("sent"))
            // Following holds tracing on; leaving lets it go (the app's
            // own setting was never touched).
            let context = try #require(AppContext.current)
            #expect(!context.tracesEvents)
            #expect(context.events.observerCount == 1)
            client.connection.abort()
            #expect(LoopDriver.run(until: { server.clientCount == 0 }))
            #expect(context.events.observerCount == 0)
        }
    }

    @Test func aFollowerTakesAtMostItsEventsPerTurnAndIsToldHowManyItMissed() throws {
        try withServer { server, tree, _ in
            let client = try follower(of: "inspected.ping", at: server.path)
            defer { client.connection.abort() }
            let root = try #require(tree.root.value(as: InspectedComponent.self))
            // A flood: 1,000 sends in one loop turn.
            let burst = 1_000
            for index in 0..<burst { root.ping.send("message \(index)") }
            #expect(LoopDriver.run(until: { client.lines.contains { $0.contains(#""dropped""#) } }))
            let events = client.lines.filter { $0.contains(#""event""#) }
            #expect(events.count == InspectionSession.eventsPerTurn)
            #expect(events.last?.contains("message \(InspectionSession.eventsPerTurn - 1)") == true)
            let report = try InspectionJSON.parse(try #require(client.lines.first { $0.contains(#""dropped""#) }))
            // Every send the follower missed is counted (the store's, which
            // it does not follow, too: counts are of sends, not of events).
            guard case .int(let dropped)? = report["dropped"] else {
                Issue.record("no count in \(report)")
                return
            }
            #expect(dropped >= burst - InspectionSession.eventsPerTurn)
            // The next turn, the follower follows again.
            root.ping.send("after the flood")
            #expect(LoopDriver.run(until: { client.lines.last?.contains("after the flood") == true }))
        }
    }

    @Test func blockingTheLoopFor200MillisecondsShowsInTheLoopReportsLag() throws {
        let context = try #require(AppContext.current)
        try context.startLoopHealth(interval: .milliseconds(10))
        let clock = ContinuousClock()
        var start = clock.now
        #expect(LoopDriver.run(until: { clock.now - start > .milliseconds(100) }))
        // The subject is a loop blocked in real time: nothing else stands
        // for 200 ms of a callback that does not return.
        usleep(200_000)   // real time: the blocked loop is the subject
        start = clock.now
        #expect(LoopDriver.run(until: { clock.now - start > .milliseconds(100) }))
        var replies: [InspectionChannel.Reply] = []
        let channel = InspectionChannel(context: context) { replies.append($0) }
        channel.send("loop --json")
        let health = try InspectionJSON.parse(try #require(replies.first?.json))["loop"]?["health"]
        guard case .double(let lagMax)? = health?["lagMax"] else {
            Issue.record("no lag in \(replies)")
            return
        }
        #expect(lagMax >= 0.15, "\(replies)")
        channel.send("loop")
        #expect(replies.last?.readable.contains("loop: lag p50") == true, "\(replies)")
    }

    @Test func theSocketDoesNotKeepTheLoopAlive() throws {
        try withServer { server, tree, _ in
            let client = try connect(server.path)
            defer { client.connection.abort() }
            client.connection.writeLine("info")
            #expect(LoopDriver.run(until: { !client.lines.isEmpty }))
            let context = try #require(AppContext.current)
            let loop = try #require(context.eventLoop)
            // The listener, the server's end of the client and the client's
            // end (this test's own, referenced); the server's two are not.
            let ours = loop.openHandles().compactMap { LoopHandle.owner(of: $0) as? UnixSocketHandle }.filter { $0.path == server.path }
            #expect(ours.count == 3)
            #expect(ours.filter { !$0.keepsLoopAlive }.count == 2)
            _ = tree
        }
    }
}
