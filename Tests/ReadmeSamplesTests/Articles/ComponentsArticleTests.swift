import Compose
import ComposeTesting
import Testing

// Sources/Compose/Compose.docc/ComponentsAndLifecycle.md. The counter and
// scoreboard blocks are the README's (ComponentSampleTests); these are
// the lifecycle blocks.

@MainActor
final class RoomLog {
    var lines: [String] = []
}

struct LampComponent: Component {
    let switched = SignalEmitter()
    let log: RoomLog
    var observers: Void {
        didAppear += { log.lines.append("lamp on") }
        didDisappear += { log.lines.append("lamp off") }
    }
}

struct RoomComponent: Component {
    let lamp: LampComponent
    let log: RoomLog

    init(log: RoomLog) {
        self.log = log
        lamp = LampComponent(log: log)
    }

    var observers: Void {
        didAppear += { log.lines.append("room appears") }
        didDisappear += { log.lines.append("room disappears") }
    }
}

@MainActor
@Test func parentsAppearFirstAndDisappearLast() {
    let log = RoomLog()
    let host = TestHost(RoomComponent(log: log))
    host.tree.destroy()
    #expect(log.lines == ["room appears", "lamp on", "lamp off", "room disappears"])
}
