import ComposeApp

extension TestApp {
    /// Runs the app as systemd runs a `Type=notify` service: call it from
    /// `setUp`, before the app starts. Nothing reaches a socket; what the
    /// app would send is recorded in ``systemdNotifications``.
    ///
    /// ```swift
    /// let app = TestApp(ChatApp.self, setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "10000000"]) })
    /// #expect(app.systemdNotifications == ["READY=1"])
    /// app.advance(by: .seconds(10))
    /// #expect(app.systemdNotifications.filter { $0 == "WATCHDOG=1" }.count == 2)   // every 5 s
    /// ```
    ///
    /// - Parameter variables: The environment systemd would set
    ///   (`WATCHDOG_USEC`, `WATCHDOG_PID`, ...), read as
    ///   `SystemdEnvironment` reads the process's; `NOTIFY_SOCKET` is
    ///   set unless `variables` sets it (to `""`: not under systemd).
    public func runsUnderSystemd(_ variables: [String: String] = [:]) {
        let environment = ["NOTIFY_SOCKET": "@compose-test"].merging(variables) { _, given in given }
        context.systemd.start(environment: SystemdEnvironment(environment))
    }

    /// Every notification the app sent to systemd, in order: one string per
    /// datagram, its `KEY=VALUE` lines joined by `\n`
    /// (`"RELOADING=1\nMONOTONIC_USEC=5000000"`, its virtual time). Empty
    /// unless ``runsUnderSystemd(_:)`` was called.
    public var systemdNotifications: [String] {
        context.systemd.recorded
    }
}
