@testable import ComposeTool
import Testing

/// `compose top`'s replies decoded, and its state's changes, without an app.
@MainActor
@Suite struct TopStateTests {
    @Test func repliesDecodeAndRefusalsSayWhy() throws {
        let tree = try TopDecoding.tree(TopFixtures.tree(sessions: [(1, ["lobby", "room"]), (2, ["lobby"])])).get()
        #expect(tree.components.map(\.path) == ["chatApp", "chatApp.server", "chatApp.server.sessions", "chatApp.server.sessions.1", "chatApp.server.sessions.2"])
        #expect(tree.components[2].container == .init(kind: "InstanceComponent", instances: 2))
        #expect(tree.components[3].routes == ["lobby", "room"])
        let loop = try TopDecoding.loop(TopFixtures.loop(sessions: [1, 2], queued: 70_000)).get()
        #expect(loop.connections?.map(\.peer) == ["127.0.0.1:55871", "127.0.0.1:55872"])
        #expect(loop.connections?.first?.queuedBytes == 70_000)
        #expect(loop.health?.lagP99 == 0.004)
        #expect(try TopDecoding.info(TopFixtures.info).get() == TopInfo(app: "ComposeChat", pid: 4242, uptime: 4.4))

        let refused = #"{"v":1,"ok":false,"error":{"code":"noTree","message":"The app has no component tree now."}}"#
        #expect(TopDecoding.tree(refused) == .failure(TopFailure("The app has no component tree now. (noTree)")))
        #expect(TopDecoding.loop("not json") == .failure(TopFailure("Unreadable reply: not json")))
        // A test context's loop: no health, no handles.
        let simulated = #"{"v":1,"ok":true,"command":"loop","loop":{"app":"a","pid":1,"time":0,"simulated":true,"handleCount":0,"handles":{},"listeners":[],"connections":[],"processes":[],"inspectors":0,"health":null}}"#
        #expect(try TopDecoding.loop(simulated).get().health == nil)

        #expect(TopDecoding.followLine(#"{"v":1,"ok":true,"command":"follow","path":"chatApp"}"#) == nil)
        #expect(TopDecoding.followLine(#"{"v":1,"dropped":120,"totalDropped":120}"#)?.dropped == 120)
        #expect(TopDecoding.followLine(TopFixtures.event("chatApp.server.sessions.1.room.say", "sent", "hello"))?.event?.value == "hello")
    }

    @Test func sendsPerSecondComeFromTwoTreesAndTheSelectionStaysOnItsPath() throws {
        var state = TopState()
        state.receive(tree: try TopDecoding.tree(TopFixtures.tree(sessions: [(1, ["lobby"]), (2, ["lobby"]), (3, ["lobby"])], time: 10, sends: 1)).get())
        #expect(state.sendsPerSecond == nil)
        state.move(.tree, by: 4)
        #expect(state.selectedComponentPath == "chatApp.server.sessions.2")
        // Session 1 goes: the selection follows session 2 up a row.
        state.receive(tree: try TopDecoding.tree(TopFixtures.tree(sessions: [(2, ["lobby"]), (3, ["lobby"])], time: 12, sends: 6)).get())
        #expect(state.selectedComponentPath == "chatApp.server.sessions.2")
        #expect(state.selectedComponent == 3)
        // 3 sends then, 12 now, over 2 seconds.
        #expect(state.sendsPerSecond == 4.5)
        // Session 2 goes too: the row stays, within the rows left.
        state.receive(tree: try TopDecoding.tree(TopFixtures.tree(sessions: [], time: 13)).get())
        #expect(state.selectedComponent == 2)
        state.move(.tree, by: -10)
        #expect(state.selectedComponent == 0)
        #expect(state.instanceCount == 0)
    }

    @Test func theLagHistoryAndTheFollowedEventsAreBounded() throws {
        var state = TopState()
        for index in 0..<(TopState.historyLimit + 10) {
            state.receive(loop: try TopDecoding.loop(TopFixtures.loop(sessions: [1], lag: Double(index))).get())
        }
        #expect(state.lagHistory.count == TopState.historyLimit)
        #expect(state.lagHistory.last == Double(TopState.historyLimit + 9))
        state.move(.connections, by: 3)
        #expect(state.selectedConnection == 0)
        #expect(state.selectedPath(in: .connections) == "chatApp.server.sessions.1.connection")

        state.follow("chatApp.server")
        for index in 0..<(TopState.followLimit + 5) {
            state.receive(follow: try #require(TopDecoding.followLine(TopFixtures.event("chatApp.server.sessions.1.room.say", "sent", "m\(index)", time: 12.5))))
        }
        state.receive(follow: try #require(TopDecoding.followLine(#"{"v":1,"dropped":7,"totalDropped":7}"#)))
        #expect(state.followed.count == TopState.followLimit)
        #expect(state.followed.last == "12.500s chatApp.server.sessions.1.room.say sent m\(TopState.followLimit + 4)")
        #expect(state.dropped == 7)
        state.follow("chatApp")
        #expect(state.followed.isEmpty && state.dropped == 0 && state.followedPath == "chatApp")
    }

    @Test func followRequestsEscapeThePath() {
        #expect(TopRequest.follow("chatApp.server") == #"{"v":1,"command":"follow","path":"chatApp.server"}"#)
        #expect(TopRequest.follow("a\"b\\c\n") == #"{"v":1,"command":"follow","path":"a\"b\\c\u000a"}"#)
    }

    @Test func theCommandGivesTheAppItsOwnArguments() {
        #expect(TopCommand.arguments(socket: "/run/compose/ComposeChat.4242.sock", interval: 0.5, follow: nil, lines: false)
            == ["--socket=/run/compose/ComposeChat.4242.sock", "--interval=0.5"])
        #expect(TopCommand.arguments(socket: "/s", interval: 1, follow: "chatApp.server", lines: true)
            == ["--socket=/s", "--interval=1.0", "--follow=chatApp.server", "--lines=true"])
    }

    @Test func formats() {
        #expect(TopFormat.uptime(7) == "7s")
        #expect(TopFormat.uptime(187) == "3m 07s")
        #expect(TopFormat.uptime(7500) == "2h 05m")
        #expect(TopFormat.lag(0.000118) == "0.12ms")
        #expect(TopFormat.lag(0.035) == "35ms")
        #expect(TopFormat.lag(1.25) == "1.2s")
        #expect(TopFormat.rate(11.3) == "11.3")
        #expect(TopFormat.rate(850.4) == "850")
        #expect(TopFormat.rate(12_345) == "12.3k")
        #expect(TopFormat.bytes(512) == "512 B")
        #expect(TopFormat.bytes(70_000) == "68 KiB")
        #expect(TopFormat.bytes(3 << 20) == "3.0 MiB")
    }
}
