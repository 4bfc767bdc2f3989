import Compose

/// A loop resource stored in a component (a timer, a signal, standard
/// input, a file watcher): it offers emitters, starts when its component
/// appears (if asked to), stops when it disappears and closes when it is
/// destroyed. Conforming types supply ``start()``, ``stop()``, ``close()``,
/// ``startsWithComponent`` and ``offeredEmitters``; the
/// ``ComponentAttachment`` calls come from this protocol.
@MainActor
public protocol LoopResource: ComponentAttachment {
    /// Whether the resource starts when its component appears.
    var startsWithComponent: Bool { get }
    /// The emitters the resource offers; its component adopts them, so the
    /// ancestor rule applies and destroying the component cancels their
    /// observers.
    var offeredEmitters: [any EmitterProtocol] { get }
    /// Starts (or restarts) the resource.
    func start()
    /// Stops the resource; it may be started again.
    func stop()
    /// Stops the resource for good and closes its handle.
    func close()
}

extension LoopResource {
    public func close() {
        stop()
    }

    public func componentDidBind(_ node: ComponentNode) {
        for emitter in offeredEmitters { emitter.adopt(by: node) }
    }

    public func componentDidAppear() {
        if startsWithComponent { start() }
    }

    public func componentDidDisappear() {
        stop()
    }

    public func componentWillBeDestroyed() {
        close()
    }
}

extension EmitterProtocol {
    /// Makes `node` the owner of this emitter (see ``Emitter/adopt(by:)``).
    public func adopt(by node: ComponentNode) {
        emitter.adopt(by: node)
    }
}
