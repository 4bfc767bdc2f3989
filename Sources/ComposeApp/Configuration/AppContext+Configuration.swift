public import Compose

extension AppContext {
    /// The app's configuration: its layered settings, its reload and the
    /// emitter a reload sends (see ``AppConfiguration``).
    ///
    /// `StartupComponent.main()` installs the process's (arguments and
    /// environment) before the root component is created, and a `TestApp`
    /// its in-memory one; another context gets, on first use, one with the
    /// app's defaults only. Setting it installs another.
    ///
    /// ```swift
    /// context.configuration.didReload += { applySettings(context.config) }
    /// ```
    public var configuration: AppConfiguration {
        get {
            if let configuration = configurationStore as? AppConfiguration { return configuration }
            let configuration = AppConfiguration()
            self.configuration = configuration
            return configuration
        }
        set {
            configurationStore = newValue
            newValue.attach(to: self)
        }
    }

    /// The app's configuration (``configuration``), as apps read it:
    /// command line, environment, file, defaults.
    ///
    /// ```swift
    /// let port = context.config.int(forKey: "port", default: 8080)
    /// ```
    public var config: AppConfiguration { configuration }
}

extension Application {
    /// The running app's configuration (`AppContext.config`), from its
    /// code, its root's `init()` included:
    ///
    /// ```swift
    /// @main
    /// struct AppComponent: Component {
    ///     let server: ServerComponent
    ///
    ///     init() {
    ///         let config = Application.config
    ///         server = ServerComponent(
    ///             port: config.int(forKey: "port", default: 8080),       // --port, PORT, "port" in the file
    ///             greeting: config.string(forKey: "greeting", default: "Hello")
    ///         )
    ///     }
    /// }
    /// ```
    ///
    /// Outside a running app it reports `Diagnostic.Code.noRunningApp`
    /// and returns a configuration with no values, so every read gets its
    /// default.
    public static var config: AppConfiguration {
        guard let context = context else {
            Diagnostics.report(Diagnostic(.noRunningApp, "Application.config was read outside a running app: every value is its default. Read it from an app's code (its root's init(), observers, tasks they start), or from a test through TestApp."))
            return AppConfiguration()
        }
        return context.config
    }

    /// Sent after the running app's configuration was reloaded (`SIGHUP`):
    /// read the values that may have changed again. Observe it rather than
    /// `ProcessSignal(.hangup)`, which may run before the reload.
    ///
    /// ```swift
    /// Application.configurationDidReload += {
    ///     hub.messageOfTheDay = Application.config.string(forKey: "motd", default: "Welcome!")
    /// }
    /// ```
    public static var configurationDidReload: SignalEmitter {
        guard let context = context else {
            Diagnostics.report(Diagnostic(.noRunningApp, "Application.configurationDidReload was used outside a running app: it never sends. Use it from an app's code, or from a test through TestApp."))
            return SignalEmitter()
        }
        return context.configuration.didReload
    }
}
