import ComposeApp
import ComposeTesting
import Testing

// The tutorial (once README.md's, now
// Sources/ComposeApp/ComposeApp.docc/Tutorial.md), verbatim
// (ReadmeBlocksTests checks that every Swift block of README.md and of the
// articles appears in this folder).

@MainActor
@Suite struct TutorialEmitterTests {
    @Test func emittersBlock() {
        let greeting = Emitter<String>()
        var heard: [String] = []

        greeting += { heard.append($0) }
        greeting.send("hello")

        #expect(heard == ["hello"])
    }

    @Test func operatorsBlock() {
        let temperature = Emitter<Int>()
        var changes: [String] = []

        temperature.send(18)
        temperature ++= { changes.append("now \($0)") }
        temperature ~+= { new, old in changes.append("from \(old) to \(new)") }
        temperature.send(21)

        #expect(changes == ["now 18", "now 21", "from 18 to 21"])
    }
}

struct CounterComponent: Component {
    let increment = SignalEmitter()
    let count = Emitter<Int>()
}

extension CounterComponent {
    var observers: Void {
        increment += {
            count.send((count.lastValue ?? 0) + 1)
        }
    }
}

struct ScoreboardComponent: Component {
    let home = CounterComponent()
    let away = CounterComponent()
    let log = ScoreLog()
}

extension ScoreboardComponent {
    var observers: Void {
        didAppear += { log.lines.append("game on") }
        home.count += { log.lines.append("home \($0)") }
        away.count += { log.lines.append("away \($0)") }
    }
}

@MainActor
final class ScoreLog {
    var lines: [String] = []
}

@MainActor
@Test func scoresAreCountedPerTeam() {
    let host = TestHost(ScoreboardComponent())

    host.root.home.increment.send()
    host.root.away.increment.send()
    host.root.home.increment.send()

    #expect(host.root.log.lines == ["game on", "home 1", "away 1", "home 2"])
    #expect(host.node("home")?.path == "scoreboard.home")
    #expect(host.diagnostics.isEmpty)
}
