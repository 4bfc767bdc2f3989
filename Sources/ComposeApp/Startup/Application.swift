import Compose

/// The running app: shut it down, reach its tree, follow deep links.
@MainActor
public enum Application {
    /// Starts a graceful shutdown that ends with exit status `status`.
    ///
    /// Safe from anywhere on the main actor, at any time: a request made
    /// before the loop runs (in `willBindRootComponent`, `didBindRootComponent`
    /// or a `didAppear` observer) is honoured as soon as the root is active.
    /// Requests after the first are ignored.
    public static func shutdown(status: Int32 = 0) {
        Runtime.shared.requestShutdown(status: status, reason: "requested by the app")
    }

    /// Whether a shutdown has begun.
    public static var isShuttingDown: Bool {
        Runtime.shared.shutdownRequested
    }

    /// The app's component tree, once bound.
    public static var tree: ComponentTree? {
        Runtime.shared.tree
    }

    /// The route string of the focused chain (see
    /// ``ComponentTree/currentRoute``), or `""` before binding.
    public static var currentRoute: String {
        tree?.currentRoute ?? ""
    }

    /// Opens a deep link (see ``ComponentTree/open(_:mode:)``).
    public static func open(_ route: String, mode: RouteOpeningMode = .replace) throws(RouteError) {
        guard let tree else {
            throw RouteError(code: .notBound, segment: route, choices: [], message: "Cannot open \"\(route)\": the app's tree is not bound yet. Open routes from didBindRootComponent() or later.")
        }
        try tree.open(route, mode: mode)
    }

    /// Sent once when a graceful shutdown begins, before the tree is
    /// deactivated.
    public static var willShutDown: SignalEmitter {
        Runtime.shared.willShutDown
    }
}
