/// A child component that the program creates with data and destroys
/// itself.
///
/// ```swift
/// struct ProfileComponent: RouterComponent {
///     let editProfile = DynamicComponent<EditProfileComponent>()
///     let router = Router(start: \Self.self)
///     let openEditProfile = Emitter<ProfileObject>()
/// }
///
/// extension ProfileComponent {
///     var observers: Void {
///         openEditProfile += { profile in
///             editProfile.create { EditProfileComponent(profile: profile) }
///             editProfile.close += {
///                 editProfile.destroy()
///             }
///             router.push(\Self.editProfile)
///         }
///     }
/// }
/// ```
///
/// Routing to a dynamic component that was not created is a diagnostic with
/// no effect, never a crash. Destroying one that is on a router's stack
/// removes it from the stack first.
@MainActor
@dynamicMemberLookup
public struct DynamicComponent<Content: Component>: Component {
    let box: SingleInstanceBox<Content>

    /// An empty slot; call ``create(_:)`` to fill it.
    public init() {
        box = SingleInstanceBox(kind: "DynamicComponent", factory: nil)
    }

    public var observers: Void { None }

    /// Makes and binds the component (its `observers` run), sends
    /// ``didCreate``, and activates it if this slot is active. Creating while
    /// one exists is a diagnostic and changes nothing.
    public func create(_ make: @MainActor () -> Content) {
        box.create(make)
    }

    /// Removes the component from its router's stack if it is on it,
    /// deactivates and destroys it (cancelling every observer in its subtree
    /// and on its emitters), then sends ``didDestroy``. Does nothing if none
    /// exists.
    public func destroy() {
        guard let container = box.container, box.instance != nil else { return }
        if let router = container.parent?.behavior as? Router {
            router.remove(container)
        }
        box.destroyInstance()
    }

    /// Sent after ``create(_:)``.
    public var didCreate: SignalEmitter { box.didCreate }
    /// Sent after ``destroy()``.
    public var didDestroy: SignalEmitter { box.didDestroy }
    /// Whether a component exists now.
    public var isCreated: Bool { box.instance != nil }
    /// The component, while it exists.
    public var component: Content? { box.instance }

    /// An emitter of the component. Read while none exists, it is a detached
    /// emitter that never fires (and a diagnostic is reported).
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<Value> {
        box.member(keyPath)
    }

    /// Any other member of the component, or `nil` while none exists.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Value>) -> Value? {
        box.instance?[keyPath: keyPath]
    }
}

