public import Compose

extension AppContext {
    /// The app's side of systemd's notify protocol: its status line, the
    /// timeout extension, and what the runtime sends by itself (READY,
    /// RELOADING, STOPPING, WATCHDOG; see ``SystemdNotifier``).
    ///
    /// `StartupComponent.main()` starts it with the environment systemd
    /// gave the process; in any other context it sends nothing (a
    /// `TestApp` records instead, after `runsUnderSystemd(_:)`).
    ///
    /// ```swift
    /// context.systemd.status = "serving 3 clients"
    /// ```
    public var systemd: SystemdNotifier {
        if let notifier = systemdStore as? SystemdNotifier { return notifier }
        let notifier = SystemdNotifier(context: self)
        systemdStore = notifier
        return notifier
    }
}

extension Application {
    /// The running app's systemd notifier (`AppContext.systemd`), from
    /// its code:
    ///
    /// ```swift
    /// clients.didChange += { Application.systemd.status = "serving \(clients.count) clients" }
    /// ```
    ///
    /// Outside a running app it reports `Diagnostic.Code.noRunningApp`
    /// and returns a notifier that sends nothing.
    public static var systemd: SystemdNotifier {
        guard let context else {
            Diagnostics.report(Diagnostic(.noRunningApp, "Application.systemd was used outside a running app: it sends nothing. Use it from an app's code, or from a test through TestApp."))
            return SystemdNotifier.detached()
        }
        return context.systemd
    }
}
