import Compose
import OpenCombine
#if canImport(Glibc)
import Glibc
#endif

// One in-process case, run N times, for valgrind's callgrind to count
// instructions: `InstructionCounts CASE N`. scripts/instructions.py runs each
// case with two values of N and divides the difference in instructions by
// the difference in N, so everything outside the loop (process start, the
// runtime, set-up) cancels out. Every contender is written as a user would
// write the floor: closures made once, outside the measured loop; the
// closure array called by index.

/// Where every observer adds what it is given, so nothing is optimised away.
// Unchecked: the process has one thread; the closures only run on it.
final class Sink: @unchecked Sendable {
    var sum = 0
}

/// The observer of every contender: `{ value in sink.sum &+= value }`, made
/// outside the main actor so that it is the same plain closure everywhere.
nonisolated func observer(_ sink: Sink) -> @Sendable (Int) -> Void {
    { value in sink.sum &+= value }
}

nonisolated func signalObserver(_ sink: Sink) -> @Sendable () -> Void {
    { sink.sum &+= 1 }
}

/// Built out of line so that the optimiser cannot see which closures the
/// array holds, as it cannot for an emitter.
@inline(never)
func closureArray(_ count: Int, _ sink: Sink) -> ContiguousArray<(Int) -> Void> {
    var closures = ContiguousArray<(Int) -> Void>()
    for _ in 0..<count { closures.append(observer(sink)) }
    return closures
}

@inline(never)
func signalArray(_ count: Int, _ sink: Sink) -> ContiguousArray<() -> Void> {
    var closures = ContiguousArray<() -> Void>()
    for _ in 0..<count { closures.append(signalObserver(sink)) }
    return closures
}

struct Counter: Equatable {
    var count = 0
    var name = ""
}

/// The store's floor: a property whose `didSet` calls the observers.
final class DidSetCounter {
    var observers = ContiguousArray<(Counter) -> Void>()
    var state = Counter() {
        didSet {
            let observers = observers
            let state = state
            for index in observers.indices { observers[index](state) }
        }
    }
}

nonisolated func counterObserver(_ sink: Sink) -> @Sendable (Counter) -> Void {
    { state in sink.sum &+= state.count }
}

struct StoreHolder: Component {
    @Store var state = Counter()
}

extension StoreHolder {
    var observers: Void { None }
}

@MainActor
func run(_ name: String, _ n: Int, _ sink: Sink) -> Bool {
    let parts = name.split(separator: "-")
    let observers = Int(parts.last ?? "") ?? 0
    switch parts.dropLast().joined(separator: "-") {
    case "array-send":
        let closures = closureArray(observers, sink)
        for value in 0..<n {
            for index in closures.indices { closures[index](value) }
        }
    case "emitter-send":
        let emitter = Emitter<Int>()
        for _ in 0..<observers { emitter += observer(sink) }
        for value in 0..<n { emitter.send(value) }
    case "opencombine-send":
        let subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<observers).map { _ in subject.sink(receiveValue: observer(sink)) }
        for value in 0..<n { subject.send(value) }
        withExtendedLifetime(cancellables) {}
    case "array-signal":
        let closures = signalArray(observers, sink)
        for _ in 0..<n {
            for index in closures.indices { closures[index]() }
        }
    case "signal-send":
        let signal = SignalEmitter()
        for _ in 0..<observers { signal += signalObserver(sink) }
        for _ in 0..<n { signal.send() }
    case "array-subscribe":
        var closures = closureArray(observers, sink)
        let body = observer(sink)
        for _ in 0..<n {
            closures.append(body)
            closures.removeLast()
        }
        withExtendedLifetime(closures) {}
    case "emitter-subscribe":
        let emitter = Emitter<Int>()
        for _ in 0..<observers { emitter += observer(sink) }
        let body = observer(sink)
        for _ in 0..<n {
            let subscription = emitter += body
            subscription.cancel()
        }
    case "opencombine-subscribe":
        let subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<observers).map { _ in subject.sink(receiveValue: observer(sink)) }
        let body = observer(sink)
        for _ in 0..<n {
            let cancellable = subject.sink(receiveValue: body)
            cancellable.cancel()
        }
        withExtendedLifetime(cancellables) {}
    case "didset-write":
        let plain = DidSetCounter()
        for _ in 0..<observers { plain.observers.append(counterObserver(sink)) }
        for _ in 0..<n { plain.state.count += 1 }
    case "store-write":
        let tree = ComponentTree(StoreHolder())
        let holder = tree.root.value(as: StoreHolder.self)!
        for _ in 0..<observers { holder.$state += counterObserver(sink) }
        for _ in 0..<n { holder.state.count += 1 }
        withExtendedLifetime(tree) {}
    case "opencombine-write":
        let subject = CurrentValueSubject<Counter, Never>(Counter())
        let cancellables = (0..<observers).map { _ in subject.dropFirst().sink(receiveValue: counterObserver(sink)) }
        for _ in 0..<n { subject.value.count += 1 }
        withExtendedLifetime(cancellables) {}
    case "inspection-off", "inspection-idle", "inspection-counting", "inspection-following":
        InspectionCost.run(InspectionCost.Mode(rawValue: parts.dropLast().joined(separator: "-"))!, observers: observers, n: n, sink: sink)
    case _ where name.hasPrefix("isolation-"):
        return IsolationCost.run(name, n: n, sink: sink)
    case "bind":
        // `bind-11111 10`: binds 10 trees of 11,111 components (BindCost.swift).
        return BindCost.run(components: observers, trees: n)
    default:
        return false
    }
    return true
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let n = Int(arguments[2]), n >= 0 else {
    print("usage: InstructionCounts CASE N   (CASE like emitter-send-10; see scripts/instructions.py)")
    exit(2)
}
let sink = Sink()
let known = MainActor.assumeIsolated { run(arguments[1], n, sink) }
guard known else {
    print("unknown case \(arguments[1])")
    exit(2)
}
// The sum keeps every observer's work alive.
print(sink.sum)
