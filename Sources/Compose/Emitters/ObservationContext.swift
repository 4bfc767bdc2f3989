/// Which observation scope is in effect right now.
///
/// A scope is in effect while a component's `observers` runs (the component
/// itself) and while an observer closure runs (the scope that observer was
/// registered in). Observers registered meanwhile join that scope and are
/// cancelled with it.
///
/// The state is a single pointer to a cell: emitters point it at a field of
/// their own state for the length of a dispatch and update that field per
/// observer, so the hot loop writes plain memory rather than a global. Every
/// change is undone before the function that made it returns (no scope stack
/// that could be left unbalanced).
@MainActor
@usableFromInline
enum ObservationContext {
    @usableFromInline
    typealias Cell = UnsafeMutablePointer<Unmanaged<ComponentNode>?>

    // Unchecked: every access is a single load or store of a pointer,
    // never held across a call, so accesses cannot overlap; checked, the
    // module's own reads (the deferred store sends) cost a runtime call.
    @usableFromInline @exclusivity(unchecked)
    static var cell: Cell?

    /// Whether the end of a dispatch has work beyond restoring the scope: a
    /// store was written during it (``DeferredStoreSends``), or an emitter
    /// had an observer added or cancelled while it dispatched (its
    /// `needsSettling`). One flag for both, so that the end of a dispatch
    /// pays a single load and branch when there is none. Set during a
    /// dispatch; cleared by ``DeferredStoreSends/flushIfOutermost()`` once
    /// no dispatch runs, so every dispatch that ends while it is set looks
    /// at its own emitter's work.
    // Unchecked: every access is a single load or store of a Bool, never
    // held across a call, so accesses cannot overlap; a checked global
    // costs a runtime call per write here.
    @usableFromInline @exclusivity(unchecked)
    static var hasDeferredWork = false

    /// The scope in effect, if any.
    @inlinable
    static var currentScope: ComponentNode? {
        cell?.pointee?.takeUnretainedValue()
    }

    @inlinable
    static func enterDispatch(scopeCell: Cell) -> Cell? {
        let saved = cell
        cell = scopeCell
        return saved
    }

    @inlinable
    static func leaveDispatch(restoring saved: Cell?) {
        cell = saved
    }

    /// Runs `body` with `scope` in effect (or none, for `nil`).
    ///
    /// Written without closures handed to the standard library
    /// (`withUnsafeMutablePointer`, `withExtendedLifetime`): in Swift 6 mode
    /// each such main-actor closure checks the executor on every call, and
    /// binding runs this once per component. `scope` is a borrowed
    /// parameter, so the caller keeps it alive until this returns.
    @discardableResult
    static func withScope<R>(_ scope: ComponentNode?, _ body: () throws -> R) rethrows -> R {
        let scopeCell = spareCells.popLast() ?? Cell.allocate(capacity: 1)
        if let scope {
            scopeCell.initialize(to: Unmanaged.passUnretained(scope))
        } else {
            scopeCell.initialize(to: nil)
        }
        let saved = cell
        cell = scopeCell
        defer {
            cell = saved
            spareCells.append(scopeCell)
            // Stores written while binding (or in a root scope) send now.
            if hasDeferredWork { DeferredStoreSends.flushIfOutermost() }
        }
        return try body()
    }

    /// Cells of finished ``withScope(_:_:)`` calls, reused by the next ones
    /// (scopes nest only as deep as binding and dispatch do).
    // Unchecked: one popLast or append per access, never held across a
    // call; checked, every bound component paid a runtime call.
    @exclusivity(unchecked)
    private static var spareCells: [Cell] = []
}
