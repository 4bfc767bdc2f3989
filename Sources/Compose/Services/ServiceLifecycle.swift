/// A service that starts with its app and stops with it: a connection
/// pool, a client that logs in, a cache that loads from disk.
///
/// Register it in ``ServiceRegistry`` like any service; when its instance
/// conforms to this protocol, the app calls ``start()`` before the root
/// component is created (in dependency order) and ``stop()`` at graceful
/// shutdown, after the component tree is torn down (in reverse order).
///
/// ```swift
/// final class SMTPMail: MailService, ServiceLifecycle {
///     func start() async throws { try await connect() }
///     func stop() async { await quit() }
///     func send(_ message: Message) { ... }
/// }
/// ```
///
/// Both run on the main actor, in the app's code (``AppContext/current``
/// is the app's context). Sleeps on the app's clock end with
/// `CancellationError` once the shutdown has begun, so `stop()` should
/// await the work it waits for (a flush, a goodbye) rather than a clock.
@MainActor
public protocol ServiceLifecycle: AnyObject {
    /// Prepares the service. Services it depends on have started.
    ///
    /// - Throws: Any error: the app does not start; it stops the services
    ///   already started (in reverse order) and exits with
    ///   ``ServiceRegistry/startFailureExitStatus``, and the error is
    ///   reported as a ``Diagnostic/Code/serviceStartFailed`` diagnostic.
    ///   A shutdown requested while services start cancels the task that
    ///   runs this method.
    func start() async throws

    /// Releases what ``start()`` acquired. Services it depends on are
    /// still running. It may take an equal share of what is left of the
    /// shutdown deadline (see ``ServiceRegistry``); past it, the task
    /// running it is cancelled, a ``Diagnostic/Code/serviceStopOverran``
    /// diagnostic is reported and the next service stops.
    func stop() async
}

extension ServiceLifecycle {
    public func start() async throws {}
    public func stop() async {}
}
