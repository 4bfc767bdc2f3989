extension Diagnostic.Code {
    /// A service was used that no one registered (see ``ServiceRegistry``).
    public static let missingService = Diagnostic.Code(rawValue: "missingService")
    /// Services depend on each other in a circle, or on a type no one
    /// registered: the app does not start.
    public static let serviceDependency = Diagnostic.Code(rawValue: "serviceDependency")
    /// A service's ``ServiceLifecycle/start()`` threw: the app does not
    /// start (or, for a service first used later, shuts down).
    public static let serviceStartFailed = Diagnostic.Code(rawValue: "serviceStartFailed")
    /// A service's ``ServiceLifecycle/stop()`` took longer than its share
    /// of the shutdown deadline; the other services were stopped all the
    /// same.
    public static let serviceStopOverran = Diagnostic.Code(rawValue: "serviceStopOverran")
    /// A service was registered after the app's services started.
    public static let serviceRegisteredTooLate = Diagnostic.Code(rawValue: "serviceRegisteredTooLate")
}
