public import Logging

/// Where diagnostics go when no component tree is involved.
///
/// A diagnostic about a value that belongs to no bound tree (a router that
/// was never bound, `Application.shutdown()` called from a free function)
/// goes to the app whose code is running (``AppContext/current``), like
/// every diagnostic of its tree. Outside any app it is logged through
/// ``logger``, unless the calling task runs inside
/// ``collectUnattached(_:)``, which takes it over: that is how a test
/// asserts such a diagnostic.
///
/// Nothing here is shared mutable state: the scope of
/// ``collectUnattached(_:)`` is a task-local value, so tests running side
/// by side in one process (and the apps they run) never see each other's
/// diagnostics.
@MainActor
public enum Diagnostics {
    /// The logger of diagnostics outside any app (label `compose`).
    public static let logger = Logger(label: "compose")

    /// Runs `body` and returns the diagnostics reported during it outside
    /// any running app, in order; they are not logged.
    ///
    /// Only diagnostics that belong to no app are collected: one reported
    /// by a tree, or by code running as an app's (``AppContext/current``),
    /// goes to that app's context as always. The scope is the calling
    /// task's (a task-local value, inherited by the tasks `body` starts
    /// while they run inside it); in nested scopes the innermost collects.
    ///
    /// ```swift
    /// let reported = Diagnostics.collectUnattached {
    ///     let loose = AuthFlow()                  // never bound
    ///     loose.router.pop()                      // does nothing
    /// }
    /// #expect(reported.map(\.code) == [.routerNotBound])
    /// ```
    ///
    /// - Parameter body: The code whose diagnostics are collected.
    /// - Returns: The diagnostics `body` reported outside any app.
    /// - Throws: What `body` throws (the diagnostics are then lost).
    public static func collectUnattached(_ body: () throws -> Void) rethrows -> [Diagnostic] {
        let collector = UnattachedDiagnostics()
        try $collector.withValue(collector) { try body() }
        return collector.diagnostics
    }

    /// The innermost ``collectUnattached(_:)`` scope of the running task.
    @TaskLocal private static var collector: UnattachedDiagnostics?

    /// Reports `diagnostic` to the app whose code is running
    /// (``AppContext/current``); outside any app, to the task's
    /// ``collectUnattached(_:)`` scope, or, without one, to ``logger``.
    package static func report(_ diagnostic: Diagnostic) {
        if let context = AppContext.current {
            context.report(diagnostic)
        } else if let collector {
            collector.diagnostics.append(diagnostic)
        } else {
            logger.warning("\(diagnostic.description)")
        }
    }

    /// Reports `diagnostic` to the tree of `node`, or as unattached when
    /// there is none (ComposeTerminal reports a view drawn inside itself).
    package static func report(_ diagnostic: Diagnostic, in node: ComponentNode?) {
        if let tree = node?.tree { tree.report(diagnostic) } else { report(diagnostic) }
    }
}

/// The diagnostics one ``Diagnostics/collectUnattached(_:)`` scope
/// collected (main-actor state, so the task-local value is `Sendable`).
@MainActor
private final class UnattachedDiagnostics {
    var diagnostics: [Diagnostic] = []
}
