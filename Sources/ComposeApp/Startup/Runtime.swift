import Compose
internal import CLibUV
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Runs one ``StartupComponent`` app on the event loop: makes the app's
/// context, binds the tree, runs the loop, shuts down, exits.
///
/// `StartupComponent.main()` makes the only one of a process; nothing here
/// is static, so the app's state lives and dies with its context.
@MainActor
final class Runtime {
    let context: AppContext
    private let configuration: StartupConfiguration
    private let loop: EventLoop
    private var tree: ComponentTree?
    private var signalHandles: [SignalHandle] = []
    private var deadline: TimerHandle?
    /// What systemd set in the environment, read (and its notify variables
    /// unset) before anything else runs.
    private let systemd: SystemdEnvironment
    /// The inspection socket and `SIGUSR1` report, unless turned off.
    private var inspection: InspectionRuntime?

    init(name: String, configuration: StartupConfiguration) throws(LoopError) {
        // When stdout is a pipe or a file, C buffers it in blocks: make it
        // line-buffered so that each `print` shows up when it is made.
        compose_line_buffer_stdout()
        self.configuration = configuration
        systemd = SystemdEnvironment.process(unsettingNotifyVariables: true)
        // Read once: inherited sockets (LISTEN_FDS), the worker's index.
        let launch = LaunchEnvironment.process()
        // `app=` (and `worker=`) on every line, added as lines are logged.
        var metadata: [(key: String, value: Logger.MetadataValue)] = [("app", "\(name)")]
        if let worker = launch.workerIndex { metadata.append(("worker", "\(worker)")) }
        let logger = configuration.makeLogger(logsToJournal: systemd.standardErrorIsJournal).addingAppMetadata(metadata)
        // The loop ignores SIGPIPE and SIGXFSZ from its creation on.
        context = try AppContext.live(
            name: name,
            logger: logger,
            shutdownDeadline: configuration.shutdownDeadline,
            forcedExitStatus: configuration.forcedExitStatus
        )
        context.shutdown.drainTimeout = configuration.drainTimeout
        // A live context always has one.
        loop = context.eventLoop!
        // The app's loop runs on this (the main) thread only.
        loop.pinToCurrentThread()
        loop.launch.environment = launch
        for note in launch.notes { context.logger.warning("\(note)") }
    }

    /// Runs the app to its end.
    ///
    /// - Parameter arguments: The command-line arguments the app's
    ///   configuration reads, without the program's name; `nil` for the
    ///   process's (`CommandLine.arguments`). A tool that runs an app as
    ///   one of its commands (`compose top`) gives the app's own.
    func run<App: StartupComponent>(_ type: App.Type, arguments: [String]? = nil) -> Never {
        context.run {
            let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
            if arguments.contains("--help") || arguments.contains("-h") { printHelp(App.self) }
            // Before anything reads it: the services' registration, factories
            // and start(), then the root's init().
            context.configuration = AppConfiguration(arguments: arguments, environment: .process, options: configuration.config, appName: context.name)
            // An argument nobody declared is a mistake the app would
            // otherwise ignore (`app 6398` listening on its default port).
            if !context.configuration.reportUndeclaredPositionalArguments().isEmpty { exitWithUsage() }
            // The workers mode's parent runs the workers, never the app.
            WorkerSupervisor.takeOverIfAsked(context: context, loop: loop, configuration: configuration, systemd: systemd)
            loop.attachMainQueue()
            installSignals()
            context.systemd.start(environment: systemd)
            inspection = InspectionRuntime.start(context: context, configuration: configuration, name: StartupConfiguration.executableName ?? context.name)
            context.shutdown.onBegin = { [unowned self] in self.armDeadline() }
            context.shutdown.onClose = { [unowned self] in self.closeTree() }
            context.shutdown.onRequestWhileStarting = { [unowned self] in self.context.services.cancelStart() }
            installStatePersistence()
            startObservability()

            App.registerServices(in: context.services)
            // The services start in tasks the loop runs: hold it open until
            // they have.
            loop.hold()
            context.services.start { [unowned self] outcome in
                self.loop.release()
                self.servicesDidStart(outcome, App.self)
            }

            loop.run()
            if context.shutdown.phase == .running {
                // Nothing keeps the loop alive: wind down the tree all the same.
                context.shutdown.idle()
                loop.run()
            }
            if context.shutdown.phase == .draining {
                // Nothing is left to drain (its connections are gone
                // without saying so): close the tree all the same.
                context.shutdown.endDrain()
                loop.run()
            }
        }
        finish()
    }

    /// Creates, binds and activates the root once the services started;
    /// otherwise shuts down (see ``ServiceRegistry/StartOutcome``).
    private func servicesDidStart<App: StartupComponent>(_ outcome: ServiceRegistry.StartOutcome, _ type: App.Type) {
        switch outcome {
        case .started:
            let tree = App.bindRoot(in: context)
            self.tree = tree
            tree.activate()
            // An app whose root shows something (ComposeTerminal's views)
            // starts showing it now.
            context.startPresentation(of: tree)
            context.reportUnclaimedInheritedSockets()
            // Known only now (the root's init, observers and didAppear
            // read their settings): an option the app has no setting for
            // is a mistake (`--prot 7000` listening on the default port),
            // so the app stops at once, before it says it is ready.
            if !context.configuration.reportUnreadArguments().isEmpty {
                writeUsage()
                context.shutdown.startFailed(status: AppConfiguration.usageErrorExitStatus, reason: "an unknown option")
                return
            }
            context.shutdown.didStart()
            context.systemd.ready()
        case .failed:
            context.shutdown.startFailed(status: ServiceRegistry.startFailureExitStatus, reason: "its services failed to start")
        case .interrupted:
            context.shutdown.startFailed(status: nil, reason: "interrupted while its services started")
        }
    }

    /// The app's state storage, the files of its state directory, offered
    /// for its first persisted store to install ComposePersistence's back
    /// end on (nothing is made for an app that persists nothing); and the
    /// back end its configuration names, if any, installed before the root
    /// binds (persisted stores restore then).
    private func installStatePersistence() {
        let configuration = configuration
        let app = StartupConfiguration.executableName ?? context.name
        context.offerStateStorage { FileStateStorage(directory: configuration.resolvedStateDirectory(app: app)) }
        guard let factory = configuration.statePersistence, let storage = context.stateStorage else { return }
        context.statePersistence = factory.make(context, storage)
    }

    // MARK: Signals

    private func installSignals() {
        for name in configuration.shutdownSignals {
            listen(to: name) { [unowned self] number in
                if let status = self.context.shutdown.signalReceived(number, name: name.description) {
                    // Exiting at once: the children's process groups
                    // (running or left behind) must not outlive the app.
                    self.loop.processGroups.killAll()
                    fflush(nil)
                    // `_exit` runs no atexit hook: the terminal a terminal
                    // app changed is given back here.
                    TerminalRestoration.restore()
                    _exit(status)
                }
            }
        }
        // SIGHUP means "reload" to a daemon, and its default action would
        // end the process: catch it for the app's whole life, so it reaches
        // ProcessSignal(.hangup) observers and never kills the app.
        if !configuration.shutdownSignals.contains(.hangup) {
            listen(to: .hangup) { [unowned self] _ in
                self.context.logger.info("SIGHUP received: reloading the configuration.")
                self.context.systemd.reload { self.context.configuration.reload() }
            }
        }
    }

    /// `--help`: creates the root with only the app's defaults to read,
    /// prints the settings it read, and exits 0 without starting the app
    /// (its services are neither registered nor started: settings they
    /// read are listed only if the root reads them too).
    private func printHelp<App: StartupComponent>(_ type: App.Type) -> Never {
        // The runtime's settings are described for --help only: elsewhere
        // they are known as read (startup reads them all).
        let help = AppConfiguration.forHelp(options: configuration.describingRuntimeSettings().config, appName: context.name)
        context.configuration = help
        _ = App()
        _ = RuntimeSettings(help, workers: configuration.workers.count, busyPolling: configuration.busyPolling)
        let program = StartupConfiguration.executableName ?? context.name
        // Not a log line or a diagnostic: the text the user asked for, on
        // standard output (a write to it that fails has nowhere to go).
        fflush(nil)
        Self.writeAll(help.help(program: program), to: STDOUT_FILENO)
        exit(0)
    }

    /// A usage error: the usage line on standard error, then exit 64
    /// (`EX_USAGE`) without starting the app (the reason is logged).
    private func exitWithUsage() -> Never {
        writeUsage()
        exit(AppConfiguration.usageErrorExitStatus)
    }

    /// Writes the usage line to standard error.
    private func writeUsage() {
        let program = StartupConfiguration.executableName ?? context.name
        fflush(nil)
        Self.writeAll(context.configuration.usage(program: program) + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to `descriptor`, retrying after a signal; a
    /// write that fails otherwise has nowhere to report to, and stops.
    /// (Help, usage, and ``Application/print(_:)`` in a live app.) Returns
    /// the `errno` of the write that failed, or `nil` when all was written.
    @discardableResult
    nonisolated static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var text = text
        return text.withUTF8 { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                if written < 0 { return errno }
                guard written > 0 else { return nil }
                offset += written
            }
            return nil
        }
    }

    private func listen(to name: ProcessSignal.Name, _ body: @escaping @MainActor (Int32) -> Void) {
        do {
            let handle = try SignalHandle(loop: loop)
            try handle.start(name.rawValue, body)
            handle.keepsLoopAlive = false
            signalHandles.append(handle)
        } catch {
            context.logger.error("Cannot handle \(name): \(error)")
        }
    }

    // MARK: Shutdown

    /// The drain is over: the tree goes, then the services.
    private func closeTree() {
        // The terminal is given back before the tree's last observers run
        // (what they print lands on the normal screen).
        context.stopPresentation()
        tree?.destroy()
        // The services stop in tasks after the tree is gone: hold the loop
        // open until they have (or the deadline closes everything).
        loop.hold()
        context.services.stop(within: context.shutdown.deadline) { [unowned self] in self.loop.release() }
    }

    private func armDeadline() {
        do {
            let timer = try TimerHandle(loop: loop)
            timer.start(after: context.shutdown.deadline) { [unowned self] in
                self.deadlinePassed()
            }
            // The deadline bounds the shutdown; it does not prolong it.
            timer.keepsLoopAlive = false
            deadline = timer
        } catch {
            context.logger.error("Cannot arm the shutdown deadline: \(error)")
        }
    }

    private func deadlinePassed() {
        let open = loop.openHandleCount - signalHandles.count - 1
        if context.shutdown.deadlinePassed(stillOpen: "\(open) handle(s)") {
            // Closing a running child's handle kills its group; this also
            // kills the groups children left behind.
            loop.processGroups.killAll()
            loop.closeAllHandles()
        }
    }

    private func finish() -> Never {
        // First, while the loop still exists: `willExit` observers (the
        // last save of persisted state) may cancel its timers.
        context.shutdown.finished()
        context.stopPresentation()
        inspection?.close()
        deadline?.close()
        for handle in signalHandles { handle.close() }
        signalHandles = []
        loop.tearDown()
        fflush(nil)
        exit(context.shutdown.exitStatus ?? 0)
    }
}
