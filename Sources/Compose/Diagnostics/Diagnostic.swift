/// A report of a misuse of Compose: the call had no effect, nothing crashed.
///
/// Every diagnostic is logged through swift-log (label `compose`) and sent on
/// the tree's ``ComponentTree/diagnostics`` emitter, so tests can assert on
/// them. One about a value that belongs to no tree goes to the running app's
/// context (``AppContext/current``), or, outside any app, to the log, unless
/// a ``Diagnostics/collectUnattached(_:)`` scope collects it (see
/// ``Diagnostics``).
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of misuse this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A component observed an emitter of one of its ancestors.
        public static let ancestorObservation = Code(rawValue: "ancestorObservation")
        /// A component value could not be matched to exactly one bound node.
        public static let ambiguousIdentity = Code(rawValue: "ambiguousIdentity")
        /// An observer subscribed in the scope of a component that was
        /// destroyed (for example by that observer itself): the
        /// subscription was refused.
        public static let observationInDestroyedScope = Code(rawValue: "observationInDestroyedScope")
        /// A component that is not part of a bound tree was asked for its node.
        public static let unboundComponent = Code(rawValue: "unboundComponent")
        /// A class was used where a component must be a struct.
        public static let componentIsNotAStruct = Code(rawValue: "componentIsNotAStruct")
        /// A routing key path does not lead to a stored child component, or
        /// leads to one that cannot be routed to now.
        public static let invalidRoute = Code(rawValue: "invalidRoute")
        /// Two child components of a router share a type and a place
        /// (zero-size components of one type): a key path to one is a key
        /// path to the other, so routing by key path to either is refused.
        public static let ambiguousRoute = Code(rawValue: "ambiguousRoute")
        /// `push` of a route that is already on the stack.
        public static let routeAlreadyOnStack = Code(rawValue: "routeAlreadyOnStack")
        /// `pop` of a stack that has only its root route.
        public static let emptyStack = Code(rawValue: "emptyStack")
        /// A router was used before its component was bound, or after it was
        /// destroyed.
        public static let routerNotBound = Code(rawValue: "routerNotBound")
        /// A container (`DynamicComponent`, `InstanceComponent`) was used
        /// outside a bound tree.
        public static let containerNotBound = Code(rawValue: "containerNotBound")
        /// `create` on a `DynamicComponent` that already holds a component.
        public static let alreadyCreated = Code(rawValue: "alreadyCreated")
        /// A member of a container's component was read while none exists.
        public static let containerNotCreated = Code(rawValue: "containerNotCreated")
        /// An `InstanceComponent` id that names no live instance.
        public static let unknownInstance = Code(rawValue: "unknownInstance")
        /// A tree was used after it was destroyed.
        public static let treeDestroyed = Code(rawValue: "treeDestroyed")
        /// An app-wide call (`Application.shutdown()`, ...) was made outside
        /// the code of a running app.
        public static let noRunningApp = Code(rawValue: "noRunningApp")
        /// Something time-based was used in a context without a scheduler.
        public static let noScheduler = Code(rawValue: "noScheduler")
    }

    /// What kind of misuse this is.
    public let code: Code
    /// What was wrong and what would be right.
    public let message: String
    /// The label path of the component concerned (`app.auth.logIn`), if any.
    public let path: String?

    /// A diagnostic of kind `code`, saying what was wrong and what would be
    /// right, about the component at `path` (if any).
    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String {
        "[\(code)] \(message)"
    }
}
