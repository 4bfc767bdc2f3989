/// The storage of a ``MappedStore``: the key path to the store it mirrors,
/// what binding found there, and the mirror's own emitter of changes.
@MainActor
final class MappedStoreBox<Source: Component, State>: BoundObject, StateReading {
    /// What the mirror reads.
    private enum Origin {
        /// Not bound, or the store was not found: the initial value.
        case unresolved
        /// A store (or another mirror).
        case store(any StateReading<State>)
        /// A plain emitter: its last value.
        case emitter(Emitter<State>)
    }

    // Safe: the escape hatch below only lets the nonisolated `init` store these
    // (mirrors are made in a component's property initialisers, anywhere).
    // Both are constants, read solely by this class's main-actor methods.
    private nonisolated(unsafe) let fallback: State
    private nonisolated(unsafe) let keyPath: KeyPath<Source, Emitter<State>>
    private var origin = Origin.unresolved
    /// The mirror's emitter, fed by the store's.
    let changes = Emitter<State>()

    nonisolated init(fallback: State, keyPath: KeyPath<Source, Emitter<State>>) {
        self.fallback = fallback
        self.keyPath = keyPath
        super.init()
    }

    var currentState: State {
        switch origin {
        case .unresolved: fallback
        case .store(let store): store.currentState
        case .emitter(let emitter): emitter.lastValue ?? fallback
        }
    }

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        // Handed down to a child: already resolved by its first owner.
        guard owner === node else { return }
        // Exempt before it is claimed, so that claiming does not start
        // tracing it: it repeats the store's sends, which are traced.
        changes.storage.exemptFromTracing()
        changes.storage.claim(by: node)
        resolve(in: node)
    }

    /// Finds the store in the nearest ancestor of type `Source` and links
    /// the mirror's emitter to it.
    private func resolve(in node: ComponentNode) {
        var ancestor = node.parent
        while let candidate = ancestor, ObjectIdentifier(candidate.componentType) != ObjectIdentifier(Source.self) {
            ancestor = candidate.parent
        }
        let property = node.boxLabel(of: self).map { node.path + "." + $0 } ?? node.path
        guard let sourceNode = ancestor, let source = sourceNode.value(as: Source.self) else {
            Diagnostics.report(Diagnostic(
                .mappedStoreSourceNotFound,
                "\(property) mirrors a store of \(Source.self), but no ancestor of \(node.path) is a \(Source.self). A mirrored store reads a store of an ancestor; declare it in a descendant of \(Source.self), or pass the state down. It keeps its initial value.",
                path: node.path
            ), in: node)
            return
        }
        let emitter = source[keyPath: keyPath]
        // The store is among the boxes of the component that owns its
        // emitter (the ancestor, or the one that handed it down to it).
        let holder = emitter.storage.owner ?? sourceNode
        var store: (any StateReading<State>)?
        holder.ownedBoxes.forEach { box in
            guard store == nil, let carrier = box as? any ChangeEmitterBox, carrier.changeStorage === emitter.storage else { return }
            store = box as? any StateReading<State>
        }
        origin = store.map { .store($0) } ?? .emitter(emitter)
        if let last = emitter.lastValue { changes.storage.prime(last) }
        // The mirror's link to the store is an observer of the store's
        // emitter in the mirror's scope, exempt from the ancestor rule
        // (reading an ancestor's state is what a mirror is for): it ends
        // with the mirror's component, and when the store's component is
        // destroyed the mirror's observers end too.
        let changes = changes
        _ = emitter.storage.insert(once: false, Handler({ state in
            changes.send(state)
        }, onCancel: {
            changes.storage.cancelAll()
        }), scope: node)
    }
}

extension MappedStoreBox: ChangeEmitterBox {
    var changeStorage: BoundObject { changes.storage }
}
