import Compose
import ComposeTesting
import Testing

// Sources/Compose/Compose.docc/WorkingWithEmitters.md. The first two
// blocks are the README's (EmittersSamplesTests); these are the rest.

@MainActor
@Suite struct EmittersArticleTests {
    @Test func combinatorsFilterDropRepeatsAndDebounce() {
        let keystrokes = Emitter<String>()
        let scheduler = VirtualScheduler()          // import ComposeTesting
        var searches: [String] = []

        keystrokes
            .filter { $0.count >= 3 }
            .undup()
            .debounce(for: .milliseconds(300), scheduler: scheduler) += { searches.append($0) }

        keystrokes.send("sw")
        keystrokes.send("swi")
        keystrokes.send("swift")
        scheduler.advance(by: .milliseconds(300))

        #expect(searches == ["swift"])
    }

    @Test func nextWaitsForTheNextValue() async {
        let replies = Emitter<String>()
        Task { @MainActor in replies.send("pong") }
        let reply = await replies.next()            // "pong"
        #expect(reply == "pong")
    }
}
