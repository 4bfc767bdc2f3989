import ComposeApp
import Dispatch

/// `async`: Swift concurrency and the main dispatch queue while the loop
/// runs. A task on the main actor hops, sleeps, then dispatches the
/// shutdown; a detached task sends to an emitter, whose observer must run on
/// the main thread. A one-shot timer keeps the loop alive meanwhile.
struct AsyncScenario: Component {
    let keepAlive = LoopTimer(after: .seconds(5))
    let received = Emitter<Int>()
    var observers: Void {
        received += { value in
            say("received \(value) on \(MainThread.isCurrent ? "main" : "another thread")")
        }
        didAppear += {
            Task { @MainActor in
                await MainActor.run {}
                // Real time on purpose: the subject is that Task.sleep
                // resumes on the loop thread while the libuv loop runs.
                try await Task.sleep(for: .milliseconds(30))   // real time: the subject is Task.sleep inside a live loop
                say("slept")
                DispatchQueue.main.async {
                    say("dispatched")
                    Application.shutdown()
                }
            }
            let received = received
            Task.detached {
                await received.send(42)
            }
        }
    }
}
