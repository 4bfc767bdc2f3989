import ComposeApp
import ComposePersistence

/// `crash`: numbered changes as fast as a 1 ms timer allows.
struct CrashScenario: Component {
    let tick = LoopTimer(every: .milliseconds(1), startsWithComponent: false)
    let state = CrashState()

    var observers: Void {
        didAppear += {
            guard mode == "crash" else { return }
            let restored = persistence.restore(Counter.self, key: "counter")
            if let restored {
                guard restored.isIntact else {
                    say("torn \(restored.number)")
                    Application.shutdown(status: 2)
                    return
                }
                say("restored \(restored.number)")
            } else {
                say("restored none")
            }
            state.number = restored?.number ?? 0
            persistence.didSave += { _ in say("saved \(state.number)") }
            tick.start()
        }
        tick += {
            for _ in 0..<state.batch where state.number < state.count {
                state.number += 1
                persistence.stateDidChange(Counter(number: state.number, paddingBytes: state.paddingBytes), key: "counter")
            }
            if state.number >= state.count {
                // The last changes are saved at shutdown.
                say("done \(state.number)")
                tick.stop()
                Application.shutdown()
            }
        }
    }
}

@MainActor
final class CrashState {
    var number = 0
    let count = environment("PERSIST_COUNT").flatMap { Int($0) } ?? 10_000
    let batch = environment("PERSIST_BATCH").flatMap { Int($0) } ?? 5
    let paddingBytes = environment("PERSIST_PADDING").flatMap { Int($0) } ?? 16 * 1024
}
