import ComposeApp

/// `stress`: opens and closes many handles in every way a program may:
/// closed once, closed twice, closed from inside their own callback, dropped
/// without closing (their owners' deinit closes them), and left open at
/// shutdown (the runtime's teardown closes them). Valgrind runs it
/// (`make check-leaks`).
struct Stress: Component {
    /// Attachments left running: the component's destruction closes them.
    let ownedTimer = LoopTimer(every: .seconds(3600))
    let ownedSignal = ProcessSignal(.user2)

    var observers: Void {
        didAppear += { StressRun.begin() }
    }
}

/// The handles of the stress scenario that no component owns.
@MainActor
enum StressRun {
    /// A repeating timer that closes itself from its first callback.
    static var selfClosing: LoopTimer?
    /// Handles still open when the app shuts down; they must not keep it
    /// alive (the timers are unref'd, signals never keep the loop alive).
    static var leftOpen: [AnyObject] = []

    static func begin() {
        for index in 0..<5_000 {
            let timer = LoopTimer(every: .milliseconds(1))
            timer.start()
            timer.close()
            if index.isMultiple(of: 2) { timer.close() }
        }
        for index in 0..<500 {
            let signal = ProcessSignal(.user1, startsWithComponent: false)
            signal.start()
            signal.stop()
            if index.isMultiple(of: 2) { signal.stop() }
        }
        // Owners dropped while started: their deinit closes the handles.
        for _ in 0..<1_000 {
            LoopTimer(after: .seconds(1)).start()
        }
        for _ in 0..<100 {
            ProcessSignal(.user1).start()
        }
        // A timer stopped and restarted, then dropped.
        let restarted = LoopTimer(every: .milliseconds(2))
        restarted.start()
        restarted.stop()
        restarted.start()

        let timer = LoopTimer(every: .milliseconds(1))
        timer += {
            StressRun.selfClosing?.close()
            StressRun.selfClosing?.close()
            StressRun.selfClosing = nil
            StressRun.finish()
        }
        selfClosing = timer
        timer.start()
    }

    static func finish() {
        for _ in 0..<3 {
            let timer = LoopTimer(every: .seconds(3600), keepsLoopAlive: false)
            timer.start()
            leftOpen.append(timer)
            let signal = ProcessSignal(.user1, startsWithComponent: false)
            signal.start()
            leftOpen.append(signal)
        }
        say("stress done")
        Application.shutdown()
    }
}
