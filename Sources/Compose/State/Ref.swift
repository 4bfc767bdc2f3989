/// A value shared by id between the components of one app: every `@Ref`
/// with the same id, in any component, reads and writes the same value.
///
/// ```swift
/// struct Session: Equatable { var user: String? }
///
/// struct LogInComponent: Component {
///     @Ref("session") var session = Session()
///     let logIn = Emitter<String>()
/// }
///
/// struct StatusComponent: Component {
///     @Ref("session") var session = Session()
/// }
///
/// extension LogInComponent {
///     var observers: Void {
///         logIn += { name in session.user = name }
///     }
/// }
///
/// extension StatusComponent {
///     var observers: Void {
///         $session += { print("user:", $0.user ?? "nobody") }
///     }
/// }
/// ```
///
/// - **One value per id and app.** The value lives on the app's context,
///   so two apps in one process (two `TestApp`s) never share one. It
///   starts as the initial value of the first `@Ref` with that id to be
///   bound; later ones take the value as it is then. Until its component is
///   bound, a `@Ref` holds its own initial value.
/// - **Synchronous.** A write is seen by every component at once (it is one
///   value). `$session` is an ``Emitter`` of the new value, shared by all
///   of them: it sends like a ``Store``'s, once per dispatch that changed
///   the value (at the end of the outermost dispatch, in the same loop
///   turn), or at once for a write outside any dispatch. No debounce, no
///   timer: deterministic in tests.
/// - **Typed.** A `@Ref` whose id is already shared with a value of
///   another type is a ``Diagnostic/Code/sharedReferenceTypeMismatch``
///   diagnostic and keeps a value of its own.
///
/// The value's emitter belongs to no component: any component may observe
/// it (its observers end with their scope), and event traces do not record
/// its sends.
@MainActor
@propertyWrapper
public struct Ref<Value: Equatable>: Sendable {
    @usableFromInline
    let box: RefBox<Value>

    /// A reference to the value shared as `id` in the app, which starts as
    /// `wrappedValue` if no component shared it yet:
    /// `@Ref("session") var session = Session()`.
    ///
    /// - Parameters:
    ///   - wrappedValue: The value until the component is bound, and the
    ///     shared value if this is the first `@Ref` of `id` bound.
    ///   - id: The name the value is shared under in the app.
    @inlinable
    public nonisolated init(wrappedValue: Value, _ id: String) {
        box = RefBox(StoreBox(wrappedValue), id: id)
    }

    /// The shared value now. Writing it sends the new value on
    /// ``projectedValue`` (at once outside a dispatch, once at the end of
    /// the outermost dispatch inside one), unless it is equal to the value
    /// last sent.
    @inlinable
    public var wrappedValue: Value {
        get {
            let cell = box.cell
            cell.checkAccess()
            return cell.pointer.pointee
        }
        nonmutating set {
            let cell = box.cell
            cell.checkAccess()
            cell.pointer.pointee = newValue
            cell.didWrite()
        }
        nonmutating _modify {
            let cell = box.cell
            cell.checkAccess()
            cell.isModifying = true
            defer {
                cell.isModifying = false
                cell.didWrite()
            }
            yield &cell.pointer.pointee
        }
    }

    /// The emitter of changes (`$session`), shared by every `@Ref` of this
    /// id: it sends the new value after each change; its last value is the
    /// value last sent.
    @inlinable
    public var projectedValue: Emitter<Value> {
        box.cell.changes
    }
}

extension Ref: FrameworkValue {}
