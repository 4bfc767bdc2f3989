/// A component's state: a value that observers read and write, and an
/// emitter (`$state`) that sends it after every change.
///
/// ```swift
/// struct Counter: Equatable, Codable { var count = 0; var name = "" }
///
/// struct CounterComponent: Component {
///     @Store var state = Counter()
///     @Store(persistedAs: "counter") var saved = Counter()
///     let increment = SignalEmitter()
/// }
///
/// extension CounterComponent {
///     var observers: Void {
///         increment += { state.count += 1 }
///         $state += { print("now", $0.count) }
///         $state ~+= { new, old in print(old.count, "→", new.count) }
///         $state.map(\.count).undup() += { print("count", $0) }
///     }
/// }
/// ```
///
/// - **Writable from observers.** A component is a struct and observers
///   capture a copy of it; the store's storage is shared by every copy, so
///   `state.count += 1` in an observer changes the one state.
/// - **One send per dispatch.** Writes made while an emitter dispatches
///   (in an observer, and in everything it calls) are sent once, with the
///   final state, when the outermost dispatch ends: three writes in one
///   observer make one send. A write outside any dispatch (a test's code,
///   a task, a `Task { }` started from an observer) sends at once; assign
///   a whole new value to change several fields with one send there.
/// - **Only changes.** A send happens only when the state differs (`==`)
///   from the one last sent: a write that leaves it equal, or writes that
///   cancel out within a dispatch, send nothing.
/// - **`$state` is an ``Emitter``** of the new state, whose last value is
///   the state last sent (the initial state before any change): every
///   operator (`+=`, `!+=`, `++=`, `~+=` with `(new, old)`) and combinator
///   applies. It belongs to the component like an emitter it declares: the
///   ancestor rule holds, destroying the component ends its observers, and
///   `app.events` records its sends as `counter.state`. Sending on it
///   directly reaches its observers without changing the state; write the
///   property instead.
/// - **Persisted.** `@Store(persistedAs: "key")` (for a `Codable` state,
///   in a file that imports ComposePersistence: without it the line does
///   not compile) restores the state the app's ``StatePersisting`` back
///   end saved under `key` when the component is bound, before `observers`
///   run, and hands it every change it sends (just before sending it). The
///   back end is the app's JSON files unless the app chose another
///   (``AppContext/statePersistence``). Keys are unique in an app: a
///   second live store with the same key is a
///   ``Diagnostic/Code/duplicateStateKey`` diagnostic and keeps its state
///   in memory only.
///
/// To read a store of an ancestor elsewhere, see ``MappedStore``; to share
/// a value between components by id, see ``Ref``.
@MainActor
@propertyWrapper
public struct Store<State: Equatable>: Sendable {
    @usableFromInline
    let box: StoreBox<State>

    /// A store holding `wrappedValue` until it is changed:
    /// `@Store var state = Counter()`.
    @inlinable
    public nonisolated init(wrappedValue: State) {
        box = StoreBox(wrappedValue)
    }

    /// A persisted store needs ComposePersistence: importing it makes this
    /// initializer available (its own), and the app's stores are then saved
    /// with no other line. Without the import, `@Store(persistedAs:)` does
    /// not compile, rather than persisting nothing.
    ///
    /// ```swift
    /// import ComposePersistence
    ///
    /// @Store(persistedAs: "settings") var settings = Settings()
    /// ```
    @available(*, unavailable, message: "import ComposePersistence to persist a store")
    public nonisolated init(wrappedValue: State, persistedAs key: String) where State: Codable {
        box = StoreBox(wrappedValue)
    }

    /// A store saved under `key` (ComposePersistence's
    /// `init(wrappedValue:persistedAs:)`): `installBackEnd` gives the app's
    /// back end when the app has none yet (the JSON files of its state
    /// directory).
    @inlinable
    package nonisolated init(
        wrappedValue: State,
        persistenceKey key: String,
        installBackEnd: @escaping @MainActor @Sendable (AppContext) -> (any StatePersisting)?
    ) where State: Codable {
        box = StoreBox(wrappedValue, persistence: StorePersistence(key: key, installBackEnd: installBackEnd))
    }

    /// The state now. Writing it sends the new state on ``projectedValue``
    /// (at once outside a dispatch, once at the end of the outermost
    /// dispatch inside one), unless it is equal to the state last sent.
    @inlinable
    public var wrappedValue: State {
        get {
            box.checkAccess()
            return box.pointer.pointee
        }
        nonmutating set {
            box.checkAccess()
            box.pointer.pointee = newValue
            box.didWrite()
        }
        nonmutating _modify {
            box.checkAccess()
            box.isModifying = true
            defer {
                box.isModifying = false
                box.didWrite()
            }
            yield &box.pointer.pointee
        }
    }

    /// The emitter of changes (`$state`): it sends the new state after each
    /// change, and its last value is the state last sent.
    @inlinable
    public var projectedValue: Emitter<State> {
        box.changes
    }
}

extension Store: FrameworkValue {}
