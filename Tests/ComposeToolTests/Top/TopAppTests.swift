@testable import ComposeTerminal
@testable import ComposeTool
import ComposeTesting
import Testing

/// `compose top`'s app in a TestApp, on a simulated terminal, with canned
/// replies for the inspection socket: sessions come and go at refreshes,
/// keys select, follow and quit.
@MainActor
@Suite struct TopAppTests {
    /// Answers as a chat with `sessions` would; records what it is asked.
    final class FakeSource: InspectionSource {
        var sessions: [(id: Int, routes: [String])] = [(1, ["lobby", "room"]), (2, ["lobby"])]
        var time = 10.0
        var failure: TopFailure?
        var asked: [String] = []
        var followed: [String] = []
        var followLine: (@MainActor (Result<String, TopFailure>) -> Void)?

        func ask(_ request: String, reply: @escaping @MainActor (Result<String, TopFailure>) -> Void) {
            asked.append(request)
            if let failure { return reply(.failure(failure)) }
            switch request {
            case TopRequest.info: reply(.success(TopFixtures.info))
            case TopRequest.tree: reply(.success(TopFixtures.tree(sessions: sessions, time: time)))
            case TopRequest.loop: reply(.success(TopFixtures.loop(sessions: sessions.map(\.id), time: time, lag: time / 1000)))
            default: reply(.success(#"{"v":1,"ok":false,"error":{"code":"unknownCommand","message":"?"}}"#))
            }
        }

        func follow(_ path: String, line: @escaping @MainActor (Result<String, TopFailure>) -> Void) {
            followed.append(path)
            followLine = line
            line(.success(#"{"v":1,"ok":true,"command":"follow","path":"\#(path)"}"#))
        }

        func close() {}
    }

    static func start(_ source: FakeSource, config: [String: AppConfiguration.Value] = [:], terminal: Bool = true) -> TestApp {
        let app = TestApp(TopApp.self, config: config, setUp: { app in
            app.context.simulatedTerminal!.isTerminal = terminal
            app.context.simulatedTerminal!.resize(columns: 100, rows: 24)
        }, services: { services in
            services.register((any InspectionSource).self) { source }
        })
        app.runUntilIdle()
        return app
    }

    /// What the terminal shows (the runtime's last frame).
    static func screen(_ app: TestApp) -> String {
        app.context.terminalScreen?.canvas?.grid.text ?? ""
    }

    static func sessionRows(_ app: TestApp) -> [String] {
        screen(app).split(separator: "\n").compactMap { line in
            line.firstMatch(of: /│\s+(\d+)  SessionComponent/).map { String($0.1) }
        }
    }

    static func type(_ app: TestApp, _ text: String) {
        app.context.simulatedTerminal!.type(Array(text.utf8))
        app.runUntilIdle()
    }

    @Test func sessionsAppearAndDisappearAtEachRefresh() {
        let source = FakeSource()
        let app = Self.start(source, config: ["interval": 2])
        #expect(Self.sessionRows(app) == ["1", "2"])
        #expect(Self.screen(app).hasPrefix("ComposeChat  pid 4242  up 10s\nevents/s 11.3  instances 2  connections 2\n"))
        #expect(source.asked == [TopRequest.info, TopRequest.tree, TopRequest.loop])

        source.sessions = [(2, ["lobby"]), (3, ["lobby"])]
        source.time = 12
        app.advance(by: .seconds(1))
        #expect(Self.sessionRows(app) == ["1", "2"], "not before the interval")
        app.advance(by: .seconds(1))
        #expect(Self.sessionRows(app) == ["2", "3"])
        source.sessions = []
        source.time = 14
        app.advance(by: .seconds(2))
        #expect(Self.sessionRows(app).isEmpty)
        #expect(Self.screen(app).contains("instances 0  connections 0"))
        #expect(Self.screen(app).contains("no connections"))
        // The lag of each refresh (10, 12 and 14 ms) is on the sparkline.
        #expect(app.run { app.root(as: TopApp.self)!.state.lagHistory } == [0.010, 0.012, 0.014])
    }

    @Test func theArrowsSelectFFollowsTabMovesRRefreshesAndQQuits() throws {
        let source = FakeSource()
        let app = Self.start(source)
        let last = Self.screen(app).split(separator: "\n").last.map(String.init)
        #expect(last == "Up select  f follow  q quit  r refresh  Tab next  Ctrl+C quit", "\(Self.screen(app))")
        // Down three times: chatApp, server, sessions, then session 1.
        Self.type(app, "\u{1B}[B\u{1B}[Bj")
        Self.type(app, "f")
        #expect(source.followed == ["chatApp.server.sessions.1"])
        #expect(Self.screen(app).contains("┌ Follow chatApp.server.sessions.1 ─"))
        source.followLine?(.success(TopFixtures.event("chatApp.server.sessions.1.room.say", "sent", "hello")))
        app.runUntilIdle()
        #expect(Self.screen(app).contains("│12.500s chatApp.server.sessions.1.room.say sent hello"), "\(Self.screen(app))")

        // Tab: the connections; down to the second, and follow it.
        Self.type(app, "\t")
        Self.type(app, "\u{1B}[Bf")
        #expect(source.followed.last == "chatApp.server.sessions.2.connection")
        #expect(!Self.screen(app).contains("room.say sent hello"))

        let asked = source.asked.count
        Self.type(app, "r")
        #expect(source.asked.count == asked + 2)

        Self.type(app, "q")
        app.runUntilExit()
        #expect(app.hasExited)
        #expect(!app.context.simulatedTerminal!.isEntered)
    }

    @Test func aFailedRefreshIsShownUntilOneSucceeds() {
        let source = FakeSource()
        source.failure = TopFailure("The app closed the inspection connection (has it exited?).")
        let app = Self.start(source)
        #expect(Self.screen(app).hasPrefix("connecting…\n\nThe app closed the inspection connection (has it exited?).\n"))
        source.failure = nil
        app.advance(by: .seconds(1))
        #expect(Self.sessionRows(app) == ["1", "2"])
        #expect(!Self.screen(app).contains("has it exited?"))
    }

    @Test func aFollowGivenAtTheStartBeginsAtOnce() {
        let source = FakeSource()
        _ = Self.start(source, config: ["follow": "chatApp.server"])
        #expect(source.followed == ["chatApp.server"])
    }

    @Test func withoutATerminalTheSummaryIsPrintedAsLines() {
        let source = FakeSource()
        let app = Self.start(source, config: ["lines": true], terminal: false)
        source.sessions = [(1, ["lobby", "room"])]
        source.time = 11
        app.advance(by: .seconds(1))
        let lines = app.context.simulatedStandardOutput!.lines
        #expect(lines.prefix(8) == [
            "ComposeChat pid 4242 up 10s events/s 11.3 instances 2 connections 2",
            "chatApp  ChatApp",
            "  server  ChatServerComponent",
            "    sessions  InstanceComponent  2 instances",
            "      1  SessionComponent  lobby › room",
            "      2  SessionComponent  lobby",
            "connection 127.0.0.1:55871  queued 0 B  chatApp.server.sessions.1.connection",
            "connection 127.0.0.1:55872  queued 0 B  chatApp.server.sessions.2.connection",
        ])
        // The next refresh prints what changed.
        #expect(lines.dropFirst(8).first == "ComposeChat pid 4242 up 11s events/s 11.3 sends/s 0 instances 1 connections 1", "\(lines)")
        #expect(app.context.simulatedTerminal!.output.isEmpty)
    }
}

extension TopAppTests {
    /// Holds its replies until told: an app whose loop is blocked.
    final class SilentSource: InspectionSource {
        var asked: [String] = []
        func ask(_ request: String, reply: @escaping @MainActor (Result<String, TopFailure>) -> Void) { asked.append(request) }
        func follow(_ path: String, line: @escaping @MainActor (Result<String, TopFailure>) -> Void) {}
        func close() {}
    }

    @Test func anAppThatDoesNotAnswerIsNotAskedAgainAndTopSaysSo() {
        let source = SilentSource()
        let app = TestApp(TopApp.self, services: { services in
            services.register((any InspectionSource).self) { source }
        })
        app.runUntilIdle()
        #expect(source.asked == [TopRequest.info, TopRequest.tree, TopRequest.loop])
        app.advance(by: .seconds(2))
        #expect(!Self.screen(app).contains("has not answered"))
        app.advance(by: .seconds(1))
        #expect(source.asked.count == 3)
        #expect(Self.screen(app).contains("The app has not answered for 3 refreshes"), "\(Self.screen(app))")
    }
}
