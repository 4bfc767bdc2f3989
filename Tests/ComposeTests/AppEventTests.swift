import Compose
import Testing

/// What the app records while it traces: the paths and described values of
/// sends, and the counts of sends while it only counts.
@MainActor
@Suite struct AppEventTests {
    struct Talker: Component {
        let said = Emitter<String>()
        let tick = SignalEmitter()
        var observers: Void { None }
    }

    struct Point: CustomStringConvertible {
        var x, y: Int
        var description: String { "(\(x), \(y))" }
    }

    @Test func aValueIsDescribedAndCutAtTheLimitInCharactersNotBytes() {
        let limit = AppEvent.maximumValueLength
        #expect(AppEvent.describe(()) == nil)
        #expect(AppEvent.describe("a line") == "a line")
        #expect(AppEvent.describe(42) == "42")
        #expect(AppEvent.describe(true) == "true")
        #expect(AppEvent.describe(2.5) == "2.5")
        #expect(AppEvent.describe(Point(x: 1, y: 2)) == "(1, 2)")
        // Twice as many bytes as characters: within the limit, whole.
        let accented = String(repeating: "é", count: limit)
        #expect(AppEvent.describe(accented) == accented)
        let long = String(repeating: "x", count: limit + 1)
        #expect(AppEvent.describe(long) == String(repeating: "x", count: limit) + "…")
        let longAccented = String(repeating: "é", count: limit + 1)
        #expect(AppEvent.describe(longAccented) == String(repeating: "é", count: limit) + "…")
        #expect(AppEvent.describe(Substring("part")) == "part")
    }

    @Test func eachSendIsRecordedAtTheEmittersPathWithItsValue() throws {
        let context = AppContext(name: "talk")
        let tree = ComponentTree(Talker(), context: context)
        let talker = try #require(tree.root.value(as: Talker.self))
        var events: [AppEvent] = []
        context.tracesEvents = true
        let watching = context.events.observe { events.append($0) }
        talker.said.send("hello")
        talker.said.send("again")
        talker.tick.send()
        #expect(events.map(\.path) == ["talker.said", "talker.said", "talker.tick"])
        #expect(events.map(\.value) == ["hello", "again", nil])
        #expect(events.allSatisfy { $0.kind == .sent })
        watching.cancel()
    }

    @Test func countsGoOnWhereTheyStoppedWhenCountingIsTurnedOffAndOn() throws {
        let context = AppContext(name: "talk")
        let tree = ComponentTree(Talker(), context: context)
        let talker = try #require(tree.root.value(as: Talker.self))
        func sends() -> Int? {
            context.treeReport().components.first?.emitters.first { $0.name == "said" }?.sends
        }
        talker.said.send("uncounted")
        context.countsSends = true
        talker.said.send("one")
        talker.said.send("two")
        #expect(sends() == 2)
        context.countsSends = false
        talker.said.send("uncounted")
        context.countsSends = true
        talker.said.send("three")
        #expect(sends() == 3)
        // Recording events counts too, once per send.
        context.tracesEvents = true
        talker.said.send("four")
        #expect(sends() == 4)
    }
}
