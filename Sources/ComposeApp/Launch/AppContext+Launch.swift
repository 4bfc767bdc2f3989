public import Compose

extension AppContext {
    /// What the app was launched with: the sockets it inherited (socket
    /// activation) and its worker index in the workers mode (see
    /// ``LaunchEnvironment``).
    ///
    /// `StartupComponent.main()` reads the process's once, at startup. Any
    /// other context starts with none; a test of a live context sets one
    /// before its servers listen (setting it ends every claim on the
    /// previous one's sockets). A test context (`TestApp`) has no event
    /// loop and keeps none: there it is always empty.
    ///
    /// ```swift
    /// let context = try AppContext.live(name: "activated")
    /// context.launchEnvironment = LaunchEnvironment(inheritedSockets: [InheritedSocket(fd: listener)])
    /// ```
    public var launchEnvironment: LaunchEnvironment {
        get { eventLoop?.launch.environment ?? LaunchEnvironment() }
        set { eventLoop?.launch.environment = newValue }
    }

    /// The inherited sockets (``LaunchEnvironment/inheritedSockets``) no
    /// `TCPServer` or `UnixServer` of the app listens on right now.
    public var unclaimedInheritedSockets: [InheritedSocket] {
        eventLoop?.launch.unclaimed ?? []
    }

    /// Reports the inherited sockets no server listens on
    /// (``Diagnostic/Code/unclaimedInheritedSocket``), if any: the runtime
    /// does once the root is active.
    package func reportUnclaimedInheritedSockets() {
        eventLoop?.launch.reportUnclaimed(in: self)
    }

    /// This process's index among the workers of the workers mode (0 for
    /// the first), or `nil` when it is not a worker (see ``WorkerOptions``).
    public var workerIndex: Int? {
        launchEnvironment.workerIndex
    }
}

extension Application {
    /// The running app's index among the workers of the workers mode (0 for
    /// the first; see ``WorkerOptions``), or `nil` when it runs as a single
    /// process. For what each worker must have of its own, such as the
    /// path of a Unix socket:
    ///
    /// ```swift
    /// let control = UnixServer(path: "/run/chatd/control-\(Application.workerIndex ?? 0).sock")
    /// ```
    public static var workerIndex: Int? {
        context?.workerIndex
    }
}
