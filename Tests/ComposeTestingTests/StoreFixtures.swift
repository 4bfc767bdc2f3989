import ComposeApp
import ComposePersistence
import ComposeTesting

// Components with stores, mirrors and shared references, written against the
// public API only (plain imports), exactly as the issue spells the surface.

struct Counter: Equatable, Codable { var count = 0; var name = "" }
struct Settings: Equatable, Codable { var volume = 5 }

/// What a component's observers saw.
@MainActor
final class StoreLog {
    /// Every state `$state` sent.
    var sent: [Counter] = []
    /// `old→new` counts, from `~+=`.
    var changes: [String] = []
    /// Every count `$state.map(\.count).undup()` sent.
    var counts: [Int] = []
    /// Free-form notes of the observers.
    var notes: [String] = []
}

struct CounterComponent: Component {
    @Store var state = Counter()
    @Store(persistedAs: "settings") var settings = Settings()
    let increment = SignalEmitter()
    /// Three writes in one observer.
    let renameAndCountTwice = Emitter<String>()
    /// Writes that leave the state as it was.
    let rewrite = SignalEmitter()
    /// Sends `inner` from inside its observer; both write.
    let outer = SignalEmitter()
    let inner = SignalEmitter()
    let log: StoreLog
}

extension CounterComponent {
    var observers: Void {
        increment += { state.count += 1 }
        renameAndCountTwice += { name in
            state.count += 1
            state.name = name
            state.count += 1
            log.notes.append("sent during the dispatch: \(log.sent.count)")
        }
        rewrite += {
            state = state
            state.count += 1
            state.count -= 1
        }
        outer += {
            state.count += 10
            inner.send()
            log.notes.append("after inner: \(log.sent.count) sent")
            state.name = "outer"
        }
        inner += { state.count += 1 }
        $state += { log.sent.append($0) }
        $state ~+= { new, old in log.changes.append("\(old.count)→\(new.count)") }
        $state.map(\.count).undup() += { log.counts.append($0) }
    }
}

// MARK: Mirrors

struct PlayerComponent: Component {
    @Store var settings = Settings()
    let louder = SignalEmitter()
    let badge: VolumeBadge
}

extension PlayerComponent {
    var observers: Void {
        louder += {
            settings.volume += 1
            badge.log.notes.append("mirror reads \(badge.settings.volume) before the send")
        }
    }
}

struct VolumeBadge: Component {
    @MappedStore(\PlayerComponent.$settings) var settings = Settings(volume: -1)
    let log: StoreLog
    let deeper: DeepBadge
}

extension VolumeBadge {
    var observers: Void {
        log.notes.append("bound with volume \(settings.volume)")
        $settings.map(\.volume) += { log.counts.append($0) }
    }
}

/// A mirror of a mirror, two levels down.
struct DeepBadge: Component {
    @MappedStore(\VolumeBadge.$settings) var settings = Settings(volume: -1)
    var observers: Void { None }
}

/// A mirror whose source is no ancestor.
struct Orphan: Component {
    @MappedStore(\PlayerComponent.$settings) var settings = Settings(volume: -7)
    var observers: Void { None }
}

// MARK: Shared references

struct Session: Equatable { var user: String?; var logins = 0 }

struct LogInComponent: Component {
    @Ref("session") var session = Session()
    let logIn = Emitter<String>()
    let log: StoreLog
}

extension LogInComponent {
    var observers: Void {
        logIn += { name in
            session.user = name
            session.logins += 1
        }
        $session += { log.notes.append("login saw \($0.user ?? "nobody")") }
    }
}

struct StatusComponent: Component {
    @Ref("session") var session = Session(user: "ignored: not the first")
    let log: StoreLog
}

extension StatusComponent {
    var observers: Void {
        $session += { log.notes.append("status saw \($0.user ?? "nobody") (reads \(session.user ?? "nobody"))") }
    }
}

struct SessionApp: Component {
    let logIn: LogInComponent
    let status: StatusComponent
    init(log: StoreLog) {
        logIn = LogInComponent(log: log)
        status = StatusComponent(log: log)
    }
    var observers: Void { None }
}

/// Shares "session" as another type.
struct WrongSession: Component {
    @Ref("session") var session = 42
    var observers: Void { None }
}

// MARK: Persistence

/// A persistence back end in memory that records every call.
@MainActor
final class RecordingPersistence: StatePersisting {
    var saved: [String: Any] = [:]
    var restores: [String] = []
    var changes: [String] = []

    func restore<State: Codable>(_ type: State.Type, key: String) -> State? {
        restores.append(key)
        return saved[key] as? State
    }

    func stateDidChange<State: Codable>(_ state: State, key: String) {
        changes.append("\(key)=\(state)")
        saved[key] = state
    }
}

/// Two components persisted under the same key.
struct TwoCounters: Component {
    let first: CounterComponent
    let second: CounterComponent
    init(log: StoreLog) {
        first = CounterComponent(log: log)
        second = CounterComponent(log: log)
    }
    var observers: Void { None }
}

/// Writes its store while it is bound.
struct Preset: Component {
    @Store var state = Counter()
    let log: StoreLog
}

extension Preset {
    var observers: Void {
        $state += { log.sent.append($0) }
        state.count = 7
        state.name = "preset"
        log.notes.append("sent while binding: \(log.sent.count)")
    }
}
