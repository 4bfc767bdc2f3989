import ComposeApp

// Apps for the tests that run on a TestApp (virtual time, simulated signals):
// the fixture's scenarios (Tests/Fixtures/AppFixture) with a journal
// instead of printed lines. The fixture itself stays for the tests whose
// subject is the real process, and for `make check-leaks`.

/// What an app saw, in order.
@MainActor
final class Journal {
    var entries: [String] = []
}

/// `lifecycle`: a root, a child and a grandchild that say when they appear
/// and disappear; an hour-long timer keeps the app running until a signal.
struct LifecycleApp: Component {
    let journal: Journal
    let lifecycle: LifecycleChild

    init() {
        journal = Journal()
        lifecycle = LifecycleChild(journal: journal)
    }

    var observers: Void {
        didAppear += { journal.entries.append("appear app") }
        didDisappear += { journal.entries.append("disappear app") }
        Application.willShutDown += { journal.entries.append("shutting down") }
    }
}

extension LifecycleApp: StartupComponent {
    func willBindRootComponent() { journal.entries.append("willBind") }
    func didBindRootComponent() { journal.entries.append("didBind") }
}

struct LifecycleChild: Component {
    let journal: Journal
    let inner: LifecycleGrandchild
    let keepAlive = LoopTimer(every: .seconds(3600))

    init(journal: Journal) {
        self.journal = journal
        inner = LifecycleGrandchild(journal: journal)
    }

    var observers: Void {
        didAppear += { journal.entries.append("appear lifecycle") }
        didDisappear += { journal.entries.append("disappear lifecycle") }
    }
}

struct LifecycleGrandchild: Component {
    let journal: Journal
    var observers: Void {
        didAppear += { journal.entries.append("appear inner") }
        didDisappear += { journal.entries.append("disappear inner") }
    }
}

/// The root every other scenario runs under: says when it appears,
/// disappears and shuts down.
struct ScenarioApp<Scenario: Component>: Component {
    let journal: Journal
    let scenario: Scenario

    init(_ make: (Journal) -> Scenario) {
        journal = Journal()
        scenario = make(journal)
    }

    var observers: Void {
        didAppear += { journal.entries.append("appear app") }
        didDisappear += { journal.entries.append("disappear app") }
        Application.willShutDown += { journal.entries.append("shutting down") }
    }
}

/// `selfShutdown`: shuts itself down with status 7 after 20 ms.
struct SelfShutdown: Component {
    let journal: Journal
    let timer = LoopTimer(after: .milliseconds(20))
    var observers: Void {
        didAppear += { journal.entries.append("appear selfShutdown") }
        didDisappear += { journal.entries.append("disappear selfShutdown") }
        timer += { Application.shutdown(status: 7) }
    }
}

/// `earlyShutdown`: asks for a shutdown (status 5) while the tree is still
/// being activated; an hour-long timer would keep the app alive if the
/// request were lost.
struct EarlyShutdown: Component {
    let journal: Journal
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        didAppear += {
            journal.entries.append("appear earlyShutdown")
            Application.shutdown(status: 5)
        }
        didDisappear += { journal.entries.append("disappear earlyShutdown") }
    }
}

/// `deadline`: a repeating timer that no component owns, so the graceful
/// shutdown cannot close it and only the deadline ends the app.
struct Deadline: Component {
    let journal: Journal
    let stray = StrayTimer()
    var observers: Void {
        didAppear += {
            let timer = LoopTimer(every: .milliseconds(100))
            timer.start()
            stray.timer = timer
            journal.entries.append("appear deadline")
        }
        didDisappear += { journal.entries.append("disappear deadline") }
    }
}

@MainActor
final class StrayTimer {
    var timer: LoopTimer?
}

/// `unref`: only a timer that does not keep the app alive.
struct Unref: Component {
    let journal: Journal
    let housekeeping = LoopTimer(every: .milliseconds(5), keepsLoopAlive: false)
    var observers: Void {
        didAppear += { journal.entries.append("appear unref") }
        housekeeping += { journal.entries.append("tick") }
    }
}

/// `signals`: SIGHUP and SIGUSR1 as emitters.
struct Signals: Component {
    let journal: Journal
    let hangup = ProcessSignal(.hangup)
    let user1 = ProcessSignal(.user1)
    let keepAlive = LoopTimer(every: .seconds(3600))
    var observers: Void {
        hangup += { _ in journal.entries.append("hup") }
        user1 += { _ in journal.entries.append("usr1") }
    }
}

/// `timers`: a repeating 20 ms timer and a one-shot 50 ms timer, both
/// started on appear, each saying when (in virtual milliseconds) it fired;
/// after five ticks the app shuts down.
struct Timers: Component {
    let journal: Journal
    let tick = LoopTimer(every: .milliseconds(20), startsWithComponent: false)
    let oneshot = LoopTimer(after: .milliseconds(50), startsWithComponent: false)
    let ticks = Counter()
    var observers: Void {
        didAppear += {
            tick.start()
            oneshot.start()
        }
        tick += {
            ticks.value += 1
            journal.entries.append("tick \(ticks.value)")
            if ticks.value == 5 { Application.shutdown() }
        }
        oneshot += { journal.entries.append("oneshot") }
    }
}

@MainActor
final class Counter {
    var value = 0
}

/// `debounce`: three values back to back through a 50 ms debounce; only
/// the last may come out.
struct Debounce: Component {
    let journal: Journal
    let values = Emitter<Int>()
    var observers: Void {
        values.debounce(for: .milliseconds(50)) += { value in
            journal.entries.append("debounced \(value)")
        }
        didAppear += {
            values.send(1)
            values.send(2)
            values.send(3)
        }
    }
}
