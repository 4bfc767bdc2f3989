/// A child component made when it becomes active and destroyed when it
/// becomes inactive.
///
/// ```swift
/// struct ProfileComponent: RouterComponent {
///     let editProfile = LazyComponent(EditProfileComponent())
///     let router = Router(start: \Self.self)
/// }
///
/// extension ProfileComponent {
///     var observers: Void {
///         editProfile.didCreate += {
///             editProfile.didSave += { print("saved") }
///         }
///     }
/// }
/// ```
///
/// The autoclosure runs each time the component becomes active; the instance
/// is bound (its `observers` run), `didCreate` is sent, and it appears. When
/// it becomes inactive it disappears, every observer in its subtree and on
/// its emitters is cancelled (also those other components registered), and
/// `didDestroy` is sent. Members of the instance are reached directly
/// (`editProfile.didSave`) through dynamic member lookup.
@MainActor
@dynamicMemberLookup
public struct LazyComponent<Content: Component>: Component {
    let box: SingleInstanceBox<Content>

    /// - Parameter make: Makes the component; runs on every activation.
    public init(_ make: @autoclosure @escaping @MainActor () -> Content) {
        box = SingleInstanceBox(kind: "LazyComponent", factory: make)
    }

    public var observers: Void { None }

    /// Sent after the instance is made and bound, before it appears.
    public var didCreate: SignalEmitter { box.didCreate }
    /// Sent after the instance is destroyed.
    public var didDestroy: SignalEmitter { box.didDestroy }
    /// Whether an instance exists now.
    public var isCreated: Bool { box.instance != nil }
    /// The instance, while it exists.
    public var component: Content? { box.instance }

    /// An emitter of the instance. Read while no instance exists, it is a
    /// detached emitter that never fires (and a diagnostic is reported).
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        box.member(keyPath)
    }

    /// Any other member of the instance, or `nil` while none exists.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Value>) -> Value? {
        box.instance?[keyPath: keyPath]
    }
}

