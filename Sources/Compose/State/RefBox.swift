/// The storage of a ``Ref``: which shared value it reaches.
///
/// Until its component is bound it reaches a value of its own; binding
/// swaps in the app's shared value for its id (``StateRegistry``), or makes
/// its own the shared one when it is the first.
@MainActor
@usableFromInline
final class RefBox<Value: Equatable>: BoundObject {
    /// The value's storage: the app's shared one once bound.
    @usableFromInline
    var cell: StoreBox<Value>
    let id: String

    @usableFromInline
    nonisolated init(_ cell: StoreBox<Value>, id: String) {
        self.cell = cell
        self.id = id
        super.init()
    }

    override func claim(by node: ComponentNode) {
        super.claim(by: node)
        // Handed down to a child: already resolved by its first owner.
        guard owner === node, let context = node.context else { return }
        switch context.stateRegistry.sharedCell(id, candidate: cell) {
        case .success(let shared):
            cell = shared
        case .failure(let mismatch):
            let property = node.boxLabel(of: self).map { node.path + "." + $0 } ?? node.path
            Diagnostics.report(Diagnostic(
                .sharedReferenceTypeMismatch,
                "\(property) refers to \"\(id)\" as a \(Value.self), but the app already shares a \(mismatch.sharedType) under that id. \(property) keeps a value of its own; use another id, or the same type in every @Ref(\"\(id)\").",
                path: node.path
            ), in: node)
        }
    }
}
