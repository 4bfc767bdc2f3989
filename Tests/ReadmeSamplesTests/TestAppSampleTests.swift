import ComposeApp
import ComposeTesting
import Testing

// README, "Testing a whole app".

@MainActor
final class Beats {
    var count = 0
}

struct Heartbeat: Component {
    let minute = LoopTimer(every: .seconds(60))
    let beats = Beats()
    var observers: Void {
        minute += {
            beats.count += 1
            if beats.count == 10 { Application.shutdown(status: 0) }
        }
    }
}

@MainActor
@Test func theHeartbeatStopsAfterTenMinutes() {
    let app = TestApp(root: Heartbeat())   // or TestApp(MyApp.self)
    app.advance(by: .seconds(300))         // five virtual minutes, at once
    #expect(app.root(as: Heartbeat.self)?.beats.count == 5)
    #expect(app.exitStatus == nil)         // still running

    app.runUntilExit()                     // jumps from timer to timer
    #expect(app.exitStatus == 0)
    #expect(app.now == .seconds(600))
}
