public import Logging

/// Where diagnostics go when no component tree is involved.
@MainActor
public enum Diagnostics {
    /// Diagnostics about values that belong to no bound tree and no running
    /// app (for example a lifecycle emitter read on a component that was
    /// never bound, outside any app's code).
    public static let unattached = Emitter<Diagnostic>()

    /// The logger of diagnostics outside any app (label `compose`).
    public static let logger = Logger(label: "compose")

    /// Reports `diagnostic` to the app whose code is running
    /// (``AppContext/current``); outside any app, sends it on
    /// ``unattached`` and logs it when nothing observes ``unattached``:
    /// an observer (a test asserting it, an app forwarding it) takes it
    /// over.
    package static func report(_ diagnostic: Diagnostic) {
        if let context = AppContext.current {
            context.report(diagnostic)
            return
        }
        if unattached.observerCount == 0 {
            logger.warning("\(diagnostic.description)")
        }
        unattached.send(diagnostic)
    }

    /// Reports `diagnostic` to the tree of `node`, or as unattached when
    /// there is none.
    static func report(_ diagnostic: Diagnostic, in node: ComponentNode?) {
        if let tree = node?.tree { tree.report(diagnostic) } else { report(diagnostic) }
    }
}
