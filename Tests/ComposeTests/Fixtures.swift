import Compose
import ComposeTesting

/// Records which component's `observers` ran, in order. Tests bind trees of
/// the components below and read this log (one log per test, passed in).
@MainActor
final class BindLog {
    var entries: [String] = []
}

/// A leaf with its own emitters.
struct Leaf: Component {
    let name: String
    let log: BindLog
    let ping = SignalEmitter()
    let value = Emitter<Int>()

    var observers: Void {
        log.entries.append("observers \(name)")
    }
}

/// A leaf that stores no reference-typed property of its own.
struct Bare: Component {
    var observers: Void { None }
}

/// A parent with two children of the same type and one bare child.
struct Pair: Component {
    let log: BindLog
    let left: Leaf
    let right: Leaf
    let bare = Bare()
    let done = SignalEmitter()

    init(log: BindLog) {
        self.log = log
        left = Leaf(name: "left", log: log)
        right = Leaf(name: "right", log: log)
    }

    var observers: Void {
        log.entries.append("observers pair")
    }
}

/// Root: a pair and another leaf.
struct Root: Component {
    let log: BindLog
    let pair: Pair
    let extra: Leaf

    init(log: BindLog) {
        self.log = log
        pair = Pair(log: log)
        extra = Leaf(name: "extra", log: log)
    }

    var observers: Void {
        log.entries.append("observers root")
    }
}

/// Something an observer closure can capture, to check it is released.
final class Witness {}
