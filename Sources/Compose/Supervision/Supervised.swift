/// A child component that the ``Supervisor`` of the component storing it
/// restarts when it fails.
///
/// ```swift
/// struct Crawler: Component {
///     let supervisor = Supervisor(strategy: .oneForOne)
///     let fetcher = Supervised(Fetcher())
///     var observers: Void {
///         fetcher.forward(\.didFetch) += { page in print(page) }   // survives restarts
///     }
/// }
/// ```
///
/// The autoclosure makes the component each time it starts: when the
/// container becomes active, and at each restart. Between a failure and the
/// restart (the supervisor's backoff) no component exists. Like
/// ``LazyComponent``, the component is destroyed when the container
/// becomes inactive, and its members are reached through dynamic member
/// lookup (`fetcher.didFetch`); an observer of such a member ends with the
/// component it was registered on, so observe ``forward(_:)`` (or register
/// again on ``didCreate``) to keep observing across restarts. In paths the
/// component is `crawler.fetcher.component`.
@MainActor
@dynamicMemberLookup
public struct Supervised<Content: Component>: Component {
    let box: SupervisedBox<Content>

    /// - Parameter make: Makes the component; runs at every start and
    ///   restart.
    public init(_ make: @autoclosure @escaping @MainActor () -> Content) {
        box = SupervisedBox(factory: make)
    }

    public var observers: Void { None }

    /// Sent each time a component is made and bound (restarts included),
    /// before it appears.
    public var didCreate: SignalEmitter { box.didCreate }
    /// Sent each time the component is destroyed (a failure, or the
    /// container becoming inactive).
    public var didDestroy: SignalEmitter { box.didDestroy }
    /// Whether a component runs now (none while a restart waits for its
    /// backoff, or after the supervisor gave up).
    public var isRunning: Bool { box.isRunning }
    /// How many times the supervisor restarted this child.
    public var restartCount: Int { box.restartCount }
    /// The component, while one runs.
    public var component: Content? { box.instance }

    /// An emitter that sends what `keyPath`'s emitter of each successive
    /// component sends: observers of it are kept across restarts.
    ///
    /// ```swift
    /// worker.forward(\.progress) += { percent in status.send(percent) }
    /// ```
    public func forward<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        box.forward(keyPath)
    }

    /// An emitter of the current component. Read while none runs, it is a
    /// detached emitter that never fires (and a diagnostic is reported).
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        box.member(keyPath)
    }

    /// Any other member of the current component, or `nil` while none runs.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Value>) -> Value? {
        box.instance?[keyPath: keyPath]
    }
}
