/// A read-only mirror, in a component, of a store of one of its ancestors
/// (the original Compose's `@MappedStore`): it reads the ancestor's state
/// as it is now, and `$` sends each of its changes.
///
/// ```swift
/// struct Settings: Equatable { var volume = 5 }
///
/// struct PlayerComponent: Component {
///     @Store var settings = Settings()
///     let volumeBadge = VolumeBadge()
/// }
///
/// struct VolumeBadge: Component {
///     @MappedStore(\PlayerComponent.$settings) var settings = Settings()
/// }
///
/// extension VolumeBadge {
///     var observers: Void {
///         $settings.map(\.volume).undup() += { print("volume", $0) }
///     }
/// }
/// ```
///
/// - **Where the store is.** Binding looks for the nearest ancestor of
///   type `Source` and the store whose emitter `keyPath` leads to (a
///   ``Store``'s `$state`, or another mirror's). A key path that leads to
///   a plain emitter mirrors that emitter's last value. No such ancestor is
///   a ``Diagnostic/Code/mappedStoreSourceNotFound`` diagnostic; the mirror
///   then holds its initial value and never sends.
/// - **Read-only.** The mirror has no setter: change the state through the
///   component that owns the store (send it an emitter).
/// - **`$settings` is the mirror's own emitter,** fed by the store's: it
///   sends each state the store sends, in the same dispatch, and its last
///   value is the store's last sent state. It belongs to the mirror's
///   component, so that component may observe it (observing the
///   ancestor's `$settings` directly would break the ancestor rule), and
///   its observers end with that component. Event traces record the
///   store's sends, not the mirror's repetitions.
///
/// Before binding, and when the store cannot be found, the mirror reads
/// `wrappedValue`, its initial value.
@MainActor
@propertyWrapper
public struct MappedStore<Source: Component, State>: Sendable {
    let box: MappedStoreBox<Source, State>

    /// A mirror of the store `keyPath` leads to in the nearest ancestor of
    /// type `Source`: `@MappedStore(\Player.$settings) var settings = Settings()`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The state read before binding, or when the store
    ///     is not found.
    ///   - keyPath: The store's emitter in `Source` (`\Player.$settings`).
    public nonisolated init(wrappedValue: State, _ keyPath: KeyPath<Source, Emitter<State>>) {
        box = MappedStoreBox(fallback: wrappedValue, keyPath: keyPath)
    }

    /// The mirrored store's state now.
    public var wrappedValue: State {
        box.currentState
    }

    /// The emitter of the mirrored store's changes (`$settings`).
    public var projectedValue: Emitter<State> {
        box.changes
    }
}

extension MappedStore: FrameworkValue {}
