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

    @usableFromInline
    static var cell: Cell?

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
    @discardableResult
    static func withScope<R>(_ scope: ComponentNode?, _ body: () throws -> R) rethrows -> R {
        var local: Unmanaged<ComponentNode>? = scope.map { Unmanaged.passUnretained($0) }
        return try withUnsafeMutablePointer(to: &local) { pointer in
            let saved = cell
            cell = pointer
            defer { cell = saved }
            return try withExtendedLifetime(scope) { try body() }
        }
    }
}
