extension Diagnostic.Code {
    /// A component failed with no ``Supervised`` ancestor to restart it
    /// (or a supervisor at the top gave up): the app shuts down with
    /// ``Supervisor/failureExitStatus``.
    public static let unsupervisedFailure = Diagnostic.Code(rawValue: "unsupervisedFailure")
    /// A component declares more than one ``Supervisor``; the first one
    /// supervises its children.
    public static let duplicateSupervisor = Diagnostic.Code(rawValue: "duplicateSupervisor")
}
