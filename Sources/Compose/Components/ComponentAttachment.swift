/// A reference type stored in a component that follows the component's
/// lifecycle: runtime resources such as timers, signal handlers and sockets.
///
/// Binding finds attachments among a component's stored properties (like
/// emitters) and calls them as the component appears, disappears and is
/// destroyed. A repeating timer, for instance, runs only while its component
/// is active and closes its handle when the component is destroyed:
///
/// ```swift
/// struct Heartbeat: Component {
///     let tick = Timer(every: .seconds(1))   // a ComponentAttachment
///     var observers: Void {
///         tick += { print("alive") }
///     }
/// }
/// ```
///
/// Each call happens once per transition, on the main actor: resources
/// start just before the component's `didAppear` is sent (parents before
/// children) and stop just after its `didDisappear` (children before
/// parents), so observers of both can still use them.
@MainActor
public protocol ComponentAttachment: AnyObject {
    /// The component was bound as `node` (its `path` names it, e.g.
    /// `app.server.listener`). Emitters the attachment offers should be
    /// adopted by the node here (``ComponentNode/adopt(_:)``).
    func componentDidBind(_ node: ComponentNode)
    /// The component became part of the active tree.
    func componentDidAppear()
    /// The component left the active tree.
    func componentDidDisappear()
    /// The component was destroyed: release every resource now.
    func componentWillBeDestroyed()
}

extension ComponentAttachment {
    public func componentDidBind(_ node: ComponentNode) {}
    public func componentDidAppear() {}
    public func componentDidDisappear() {}
    public func componentWillBeDestroyed() {}
}
