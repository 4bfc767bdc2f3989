public import Compose
package import Logging

/// A loop resource stored in a component: it offers emitters (its component
/// adopts them), starts when the component appears (if
/// ``startsWithComponent``), stops when it disappears (if
/// ``stopsWithComponent``) and closes when it is destroyed. Conforming types
/// supply ``start()``, ``stop()``, ``close()``, ``startsWithComponent`` and
/// ``offeredEmitters``; the `ComponentAttachment` calls come from this
/// protocol.
///
/// What the calls mean for each resource of ComposeApp:
///
/// | Resource | `start()` | `stop()` | `close()` |
/// |---|---|---|---|
/// | ``LoopTimer`` | starts the countdown | stops it | for good |
/// | ``ProcessSignal`` | listens | stops listening | as `stop()` |
/// | ``StandardInput`` | reads | stops reading | as `stop()` |
/// | ``FileWatcher`` | watches | stops watching | for good |
/// | ``FileTail`` | follows its path | stops (a restart goes on in the same file) | for good |
/// | ``TCPServer`` | listens | stops listening | as `stop()` |
/// | ``TCPConnection`` | reads | pauses reading | writes out the queue, closes |
/// | ``ChildProcess`` | spawns the child | terminates it | closes its input, terminates it, for good |
///
/// A connection keeps reading while its component is inactive
/// (``TCPConnection/stopsWithComponent`` is `false`); a child process
/// starts with its component only when made with `startsWithComponent:
/// true`.
@MainActor
public protocol LoopResource: ComponentAttachment {
    /// Whether the resource starts when its component appears.
    var startsWithComponent: Bool { get }
    /// Whether the resource stops when its component disappears (`true`
    /// unless the resource says otherwise).
    var stopsWithComponent: Bool { get }
    /// The emitters the resource offers; its component adopts them, so the
    /// ancestor rule applies and destroying the component cancels their
    /// observers.
    var offeredEmitters: [any EmitterProtocol] { get }
    /// Starts (or restarts) the resource. Most resources report a failure
    /// themselves (logged, and sent on their `errors` emitter if they have
    /// one) and do not throw; ``ChildProcess/start()`` throws. Started by
    /// its component, a resource that throws hands the error to
    /// ``didFailToStart(_:)``.
    func start() throws(LoopError)
    /// Stops the resource; it may be started again.
    func stop()
    /// Stops the resource for good and closes its handle.
    func close()
    /// ``start()``, called as the component appeared, threw `error`. The
    /// default logs it.
    func didFailToStart(_ error: LoopError)
}

extension LoopResource {
    public var stopsWithComponent: Bool { true }

    /// The logger of the component this resource is stored in, with its
    /// path as `component` metadata (the running app's logger before it is
    /// bound).
    package var logger: Logger {
        offeredEmitters.first?.ownerLogger ?? AppContext.current?.logger ?? Diagnostics.logger
    }

    public func close() {
        stop()
    }

    public func didFailToStart(_ error: LoopError) {
        logger.error("\(Self.self) could not start: \(error)")
    }

    public func componentDidBind(_ node: ComponentNode) {
        for emitter in offeredEmitters { node.adopt(emitter) }
    }

    public func componentDidAppear() {
        guard startsWithComponent else { return }
        do {
            try start()
        } catch {
            didFailToStart(error)
        }
    }

    public func componentDidDisappear() {
        if stopsWithComponent { stop() }
    }

    public func componentWillBeDestroyed() {
        close()
    }
}
