/// Any number of instances of one component type, added and removed at run
/// time: one per TCP connection, per job, per player.
///
/// ```swift
/// struct ServerComponent: Component {
///     let connections = InstanceComponent<ConnectionComponent>()
///     let accepted = Emitter<Socket>()
/// }
///
/// extension ServerComponent {
///     var observers: Void {
///         accepted += { socket in
///             connections.add { ConnectionComponent(socket: socket) }
///         }
///         connections.closed += { id, _ in
///             connections.remove(id)
///         }
///     }
/// }
/// ```
///
/// Each instance is bound when added (its `observers` run), gets a node
/// labelled with its id (`server.connections.3`), and is active while the
/// container is. `remove(_:)` deactivates and destroys it, cancelling every
/// observer in its subtree and on its emitters. Member access on the
/// container forwards an emitter of every instance, current and future, as
/// one emitter of `(id, value)`.
@MainActor
@dynamicMemberLookup
public struct InstanceComponent<Content: Component>: Component {
    @usableFromInline let box = InstanceBox<Content>()

    /// An empty container: add instances with `add { T(...) }` once it is bound.
    public init() {}

    public var observers: Void { None }

    /// Binds a new instance and activates it if the container is active;
    /// sends ``didCreate`` with its id, which it returns (`nil`, with a
    /// diagnostic, when the container is not bound).
    @discardableResult
    public func add(_ make: @MainActor () -> Content) -> InstanceID? {
        box.add(make)
    }

    /// Deactivates and destroys the instance, then sends ``didDestroy``.
    /// An unknown id is a diagnostic. Amortised O(1) plus the cost of
    /// destroying the instance's subtree.
    public func remove(_ id: InstanceID) {
        box.remove(id)
    }

    /// The instance with `id`, if it is alive. O(1).
    @inlinable
    public func instance(for id: InstanceID) -> Content? {
        box.instance(for: id)
    }

    /// The instance with `id`, if it is alive. O(1).
    @inlinable
    public subscript(id: InstanceID) -> Content? {
        box.instance(for: id)
    }

    /// The ids of the live instances, oldest first.
    public var ids: [InstanceID] { box.instances.map(\.id) }

    /// How many instances are alive.
    @inlinable
    public var count: Int { box.instances.count }

    /// Sent with the id of each added instance, after it is bound.
    public var didCreate: Emitter<InstanceID> { box.didCreate }
    /// Sent with the id of each removed instance, after it is destroyed.
    public var didDestroy: Emitter<InstanceID> { box.didDestroy }

    /// One emitter of every instance, forwarded with the instance's id.
    public subscript<Value>(dynamicMember keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<(id: InstanceID, value: Value)> {
        box.forward(keyPath)
    }

    /// An emitter reached through any key path of every instance
    /// (`\.connection.didClose`), forwarded with the instance's id.
    public func forward<Value>(_ keyPath: KeyPath<Content, Emitter<Value>>) -> Emitter<(id: InstanceID, value: Value)> {
        box.forward(keyPath)
    }
}

extension InstanceComponent: @MainActor Sequence {
    /// Iterates the live instances, oldest first, without copying them.
    ///
    /// The iteration sees the instances that were alive when it started:
    /// adding or removing instances meanwhile (from the loop's body, say)
    /// is safe and does not change what it visits.
    ///
    /// ```swift
    /// for (id, member) in members where member.name == kicked {
    ///     members.remove(id)
    /// }
    /// ```
    @inlinable
    public func makeIterator() -> Iterator {
        Iterator(base: box.instances.makeIterator())
    }

    /// How many instances are alive.
    public var underestimatedCount: Int { box.instances.count }

    /// Walks the live instances of an ``InstanceComponent``, oldest first.
    public struct Iterator: @MainActor IteratorProtocol {
        @usableFromInline var base: InstanceSlots<InstanceBox<Content>.Instance>.Iterator

        @inlinable
        init(base: InstanceSlots<InstanceBox<Content>.Instance>.Iterator) {
            self.base = base
        }

        @inlinable
        public mutating func next() -> (id: InstanceID, component: Content)? {
            guard let entry = base.next() else { return nil }
            return (id: entry.id, component: entry.value.component)
        }
    }
}
