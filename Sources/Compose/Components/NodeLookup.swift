/// Finds the bound node of a component value.
///
/// A value leads to its node through the framework boxes it stores (an
/// emitter's storage knows the node that declared it), so copies find the
/// same node and two instances of one type never collide. A component that
/// stores no box of its own (`struct SignUp: Component {}`) is found by type
/// within the scope in effect (the component whose observers run, and its
/// descendants); two same-type candidates at one depth are reported as
/// ambiguous rather than guessed.
@MainActor
enum NodeLookup {
    static func node<C: Component>(for value: C) -> Result<ComponentNode, Diagnostic> {
        let layout = ComponentLayout.of(C.self)
        let wanted = ObjectIdentifier(C.self)
        var holdsUnboundBox = false
        var found: ComponentNode?
        withUnsafeBytes(of: value) { raw in
            for offset in layout.boxOffsets {
                guard let box = ComponentLayout.box(at: offset, in: raw) else { continue }
                guard let owner = box.owner else {
                    holdsUnboundBox = true
                    continue
                }
                if ObjectIdentifier(owner.componentType) == wanted, !owner.isDestroyed {
                    found = owner
                    return
                }
            }
        }
        if let found { return .success(found) }
        if holdsUnboundBox { return .failure(unbound(C.self)) }
        return byType(C.self, from: ObservationContext.currentScope)
    }

    /// Breadth-first search from `scope`: the first depth with candidates
    /// must have exactly one.
    private static func byType<C: Component>(
        _ type: C.Type,
        from scope: ComponentNode?
    ) -> Result<ComponentNode, Diagnostic> {
        guard let scope else { return .failure(unbound(type)) }
        let wanted = ObjectIdentifier(type)
        var level = [scope]
        while !level.isEmpty {
            let matches = level.filter { ObjectIdentifier($0.componentType) == wanted && !$0.isDestroyed }
            if matches.count == 1 { return .success(matches[0]) }
            if matches.count > 1 {
                return .failure(Diagnostic(
                    .ambiguousIdentity,
                    "\(type) holds no emitter or other box of its own, and \(matches.count) components of that type are bound under \(scope.path): \(matches.map(\.path).joined(separator: ", ")). Give \(type) a stored emitter, or reach the node through ComponentTree.node(at:).",
                    path: scope.path
                ))
            }
            level = level.flatMap(\.children)
        }
        return .failure(unbound(type))
    }

    private static func unbound(_ type: Any.Type) -> Diagnostic {
        Diagnostic(
            .unboundComponent,
            "This \(type) value is not part of a bound component tree, so it has no node and its lifecycle emitters never fire. Use the instance stored in the tree (bind it with ComponentTree, StartupComponent or TestHost)."
        )
    }
}

extension Component {
    /// The node this value is bound to, or `nil` (with a diagnostic) when it
    /// is not part of a bound tree or cannot be told apart from a sibling.
    public var node: ComponentNode? {
        switch NodeLookup.node(for: self) {
        case .success(let node):
            return node
        case .failure(let diagnostic):
            if let tree = ObservationContext.currentScope?.tree {
                tree.report(diagnostic)
            } else {
                Diagnostics.report(diagnostic)
            }
            return nil
        }
    }

    /// The node this value is bound to, or `nil` without any report: for
    /// code that asks every frame and has an answer for "none" (a
    /// terminal view of a component that is not bound yet).
    package var boundNode: ComponentNode? {
        try? NodeLookup.node(for: self).get()
    }

    /// Sent when the component becomes part of the active tree (for the root,
    /// when the app starts; for a routed child, when it is put on its
    /// router's stack). Parents appear before their children.
    public var didAppear: SignalEmitter { node?.didAppear ?? SignalEmitter() }

    /// Sent when the component leaves the active tree. Children disappear
    /// before their parents.
    public var didDisappear: SignalEmitter { node?.didDisappear ?? SignalEmitter() }

    /// Sent when the component becomes the deepest focused one (the end of
    /// the chain of top routes from the root).
    public var didEnterFocus: SignalEmitter { node?.didEnterFocus ?? SignalEmitter() }

    /// Sent when the component stops being the deepest focused one.
    public var didLeaveFocus: SignalEmitter { node?.didLeaveFocus ?? SignalEmitter() }
}
