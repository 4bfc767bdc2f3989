public import Logging

/// Where diagnostics go when no component tree is involved.
@MainActor
public enum Diagnostics {
    /// Diagnostics about values that belong to no bound tree (for example a
    /// lifecycle emitter read on a component that was never bound).
    public static let unattached = Emitter<Diagnostic>()

    /// The logger every diagnostic is written to.
    public static let logger = Logger(label: "compose")

    /// Logs `diagnostic` and sends it on `unattached`.
    package static func report(_ diagnostic: Diagnostic) {
        logger.warning("\(diagnostic.description)")
        unattached.send(diagnostic)
    }

    /// Reports `diagnostic` to the tree of `node`, or as unattached when
    /// there is none.
    static func report(_ diagnostic: Diagnostic, in node: ComponentNode?) {
        if let tree = node?.tree { tree.report(diagnostic) } else { report(diagnostic) }
    }
}
