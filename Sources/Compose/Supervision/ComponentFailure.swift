/// A failure of a component: what went wrong, and where.
///
/// Made when a component of a supervised subtree fails (see
/// ``Supervisor``): a task of it threw, a fatal resource of it failed, or
/// it called ``Component/fail(_:)``. ``Supervisor/Restart`` and
/// ``Supervisor/GiveUp`` carry it.
///
/// ```swift
/// supervisor.didRestart += { restart in
///     if restart.failure.error is Supervisor.GiveUp { ... }   // a nested supervisor gave up
/// }
/// ```
public struct ComponentFailure: Error, CustomStringConvertible {
    /// The path of the component that failed (`app.crawler.fetcher.component`).
    public let path: String
    /// What it threw, the resource's error, or what it passed to `fail`.
    public let error: any Error

    /// - Parameters:
    ///   - path: The path of the component that failed.
    ///   - error: What went wrong.
    public init(path: String, error: any Error) {
        self.path = path
        self.error = error
    }

    /// "app.crawler.fetcher.component failed: ..."
    public var description: String {
        "\(path) failed: \(error)"
    }
}
