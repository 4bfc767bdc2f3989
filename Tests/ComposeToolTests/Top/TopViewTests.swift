@testable import ComposeTool
import ComposeTerminal
import Foundation
import Testing

/// `compose top`'s views drawn into a canvas, without an app or a terminal.
@MainActor
@Suite struct TopViewTests {
    static func text(_ view: some View, width: Int, height: Int) -> String {
        var canvas = Canvas(size: Size(width: width, height: height))
        canvas.draw(view)
        return canvas.grid.text
    }

    @Test func theSparklineScalesToItsLargestValueOrItsFloorNewestAtTheRight() {
        #expect(Sparkline.line([0, 1, 2, 4, 8], floor: 0) == "▁▂▃▅█")
        #expect(Sparkline.line([0.00001, 0.00005], floor: 0.001) == "▁▁")
        #expect(Sparkline.line([], floor: 1) == "")
        #expect(Sparkline.line([.nan, -1, .infinity, 2], floor: 0) == "▁▁▁█")
        // Wider history than room: the last values, against the right edge.
        #expect(Self.text(Sparkline([8, 8, 0, 4, 8]), width: 3, height: 1) == "▁▅█\n")
        #expect(Self.text(Sparkline([8]), width: 3, height: 1) == "  █\n")
    }

    @Test func theHeaderSaysTheAppItsPidUptimeAndRates() {
        var state = TopFixtures.state()
        #expect(TopHeaderView.summary(state) == "ComposeChat  pid 4242  up 10s  events/s 11.3  instances 2  connections 2")
        state.problem = "The app closed the inspection connection (has it exited?)."
        #expect(Self.text(TopHeaderView(state: state), width: 50, height: 3)
            == "ComposeChat  pid 4242  up 10s\nevents/s 11.3  instances 2  connections 2\nThe app closed the inspection connection (has it …\n")
        #expect(TopHeaderView.summary(TopState()) == "connecting…")
    }

    @Test func theTreeShowsRoutesInstancesAndSendsIndentedByDepth() throws {
        let tree = try TopDecoding.tree(TopFixtures.tree(sessions: [(1, ["lobby", "room"])], sends: 3)).get()
        #expect(tree.components.map(TreePaneView.row) == [
            "chatApp  ChatApp",
            "  server  ChatServerComponent",
            "    sessions  InstanceComponent  1 instance",
            "      1  SessionComponent  lobby › room  3 sent",
        ])
    }

    @Test func theScreenShowsEveryPane() {
        var state = TopFixtures.state()
        state.follow("chatApp.server.sessions.1")
        state.receive(follow: TopDecoding.followLine(TopFixtures.event("chatApp.server.sessions.1.room.say", "sent", "hello"))!)
        state.lagHistory = [0.0001, 0.0005, 0.001]
        let screen = Self.text(TopScreen(state: state), width: 80, height: 20)
        #expect(screen == """
            ComposeChat  pid 4242  up 10s
            events/s 11.3  instances 2  connections 2
            ┌ Tree ────────────────────────────────────┐┌ Connections ─────────────────────┐
            │chatApp  ChatApp                          ││127.0.0.1:55871  0 B queued       │
            │  server  ChatServerComponent             ││  server.sessions.1.connection    │
            │    sessions  InstanceComponent  2 instan…││127.0.0.1:55872  0 B queued       │
            │      1  SessionComponent  lobby › room   ││  server.sessions.2.connection    │
            │      2  SessionComponent  lobby          │└──────────────────────────────────┘
            │                                          │┌ Loop lag, p99 ───────────────────┐
            │                                          ││p50 0.12ms p99 4.00ms max 12ms    │
            │                                          ││                               ▂▅█│
            └──────────────────────────────────────────┘└──────────────────────────────────┘
            ┌ Follow chatApp.server.sessions.1 ────────────────────────────────────────────┐
            │12.500s chatApp.server.sessions.1.room.say sent hello                         │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            │                                                                              │
            └──────────────────────────────────────────────────────────────────────────────┘


            """, "\(screen)")
    }

    @Test func withoutAFollowOrConnectionsOrHealthThePanesSaySo() {
        let screen = Self.text(TopScreen(state: TopState()), width: 100, height: 20)
        #expect(screen.hasPrefix("connecting…\n"))
        #expect(screen.contains("no connections"))
        // Both fill the right column's 36 columns, borders included.
        #expect(screen.contains("││" + "not measured by the app".padding(toLength: 34, withPad: " ", startingAt: 0) + "│"), "\(screen)")
        #expect(screen.contains("││" + "no connections".padding(toLength: 34, withPad: " ", startingAt: 0) + "│"), "\(screen)")
        #expect(screen.contains("select a component and press f to follow it"))
    }

    @Test func theLinesViewIsTheHeaderTheTreeAndTheConnections() {
        #expect(TopLinesView.lines(TopFixtures.state()) == [
            "ComposeChat pid 4242 up 10s events/s 11.3 instances 2 connections 2",
            "chatApp  ChatApp",
            "  server  ChatServerComponent",
            "    sessions  InstanceComponent  2 instances",
            "      1  SessionComponent  lobby › room",
            "      2  SessionComponent  lobby",
            "connection 127.0.0.1:55871  queued 0 B  chatApp.server.sessions.1.connection",
            "connection 127.0.0.1:55872  queued 0 B  chatApp.server.sessions.2.connection",
        ])
    }
}
