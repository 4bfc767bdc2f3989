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

    // Unchecked in release builds: every access is a single load or store
    // of a pointer, never held across a call, so accesses cannot overlap;
    // checked, the module's own reads (the deferred store sends) cost a
    // runtime call. Debug builds keep the checks.
    #if DEBUG
    @usableFromInline
    static var cell: Cell?
    #else
    @usableFromInline @exclusivity(unchecked)
    static var cell: Cell?
    #endif

    /// Whether the end of a dispatch has work beyond restoring the scope: a
    /// store was written during it (``DeferredStoreSends``), or an emitter
    /// had an observer added or cancelled while it dispatched (its
    /// `needsSettling`). One flag for both, so that the end of a dispatch
    /// pays a single load and branch when there is none. Set during a
    /// dispatch; cleared by ``DeferredStoreSends/flushIfOutermost()`` once
    /// no dispatch runs, so every dispatch that ends while it is set looks
    /// at its own emitter's work.
    // Unchecked in release builds: every access is a single load or store
    // of a Bool, never held across a call, so accesses cannot overlap; a
    // checked global costs a runtime call per write here. Debug builds
    // keep the checks.
    #if DEBUG
    @usableFromInline
    static var hasDeferredWork = false
    #else
    @usableFromInline @exclusivity(unchecked)
    static var hasDeferredWork = false
    #endif

    /// Nodes destroyed while a dispatch ran, kept alive until the outermost
    /// dispatch ends (``DeferredStoreSends/flushIfOutermost()`` lets them
    /// go): an observer that destroys its own component, or an ancestor,
    /// still runs in that scope, and the dispatch reads it (the scope cell,
    /// the slot words of observers registered in it). Empty whenever no
    /// dispatch runs.
    private static var destroyedDuringDispatch: [ComponentNode] = []

    /// Keeps `node`, just destroyed, alive until the outermost dispatch
    /// ends, if a dispatch (or a ``withScope(_:_:)``) is running.
    static func keepUntilDispatchEnds(_ node: ComponentNode) {
        guard cell != nil else { return }
        destroyedDuringDispatch.append(node)
        hasDeferredWork = true
    }

    /// Lets go of the nodes kept by ``keepUntilDispatchEnds(_:)``; called
    /// once no dispatch runs. Their deinit may run code (an emitter's
    /// removal hooks), so the list is emptied before they are released.
    static func releaseDestroyedNodes() {
        guard !destroyedDuringDispatch.isEmpty else { return }
        let nodes = destroyedDuringDispatch
        destroyedDuringDispatch = []
        _ = consume nodes
    }

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
    // Unchecked in release builds: one popLast or append per access, never
    // held across a call; checked, every bound component paid a runtime
    // call. Debug builds keep the checks.
    #if DEBUG
    private static var spareCells: [Cell] = []
    #else
    @exclusivity(unchecked)
    private static var spareCells: [Cell] = []
    #endif
}
