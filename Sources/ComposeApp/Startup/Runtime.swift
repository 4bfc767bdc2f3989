import Compose
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Runs a ``StartupComponent`` app: binds it, runs the loop, shuts down.
@MainActor
final class Runtime {
    static let shared = Runtime()

    enum Phase {
        /// Binding and activating; shutdown requests wait.
        case starting
        case running
        case shuttingDown
    }

    private(set) var phase = Phase.starting
    private(set) var tree: ComponentTree?
    let willShutDown = SignalEmitter()
    private var pendingStatus: Int32?
    private var exitStatus: Int32 = 0
    private var configuration = StartupConfiguration()
    private var shutdownSignals: [SignalHandle] = []
    private var deadline: TimerHandle?
    private let loop = EventLoop.main
    private let logger = Logger(label: "compose")

    var shutdownRequested: Bool { pendingStatus != nil || phase == .shuttingDown }

    func run<App: StartupComponent>(_ type: App.Type) -> Never {
        configuration = App.configuration
        loop.attachMainQueue()
        installShutdownSignals()

        let app = App()
        app.willBindRootComponent()
        let tree = ComponentTree(app, scheduler: LoopScheduler.main, logger: logger)
        self.tree = tree
        tree.withRootScope { app.didBindRootComponent() }
        tree.activate()
        phase = .running
        if let status = pendingStatus {
            beginShutdown(status: status, reason: "requested before the loop ran")
        }

        loop.run()
        if phase == .running {
            // Nothing keeps the loop alive: wind down the tree all the same.
            beginShutdown(status: 0, reason: "nothing left to do")
            loop.run()
        }
        finish()
    }

    // MARK: Shutdown

    func requestShutdown(status: Int32, reason: String) {
        switch phase {
        case .starting:
            if pendingStatus == nil { pendingStatus = status }
        case .running:
            beginShutdown(status: status, reason: reason)
        case .shuttingDown:
            break
        }
    }

    private func installShutdownSignals() {
        for name in configuration.shutdownSignals {
            do {
                let handle = try SignalHandle(loop: loop)
                try handle.start(name.rawValue) { [unowned self] signal in
                    self.received(signal, name: name)
                }
                handle.keepsLoopAlive = false
                shutdownSignals.append(handle)
            } catch {
                logger.error("Cannot handle \(name) for graceful shutdown: \(error)")
            }
        }
        // SIGHUP means "reload" to a daemon, and its default action would
        // end the process: catch it for the app's whole life, so it reaches
        // ProcessSignal(.hangup) observers and never kills the app.
        guard !configuration.shutdownSignals.contains(.hangup) else { return }
        do {
            let handle = try SignalHandle(loop: loop)
            try handle.start(ProcessSignal.Name.hangup.rawValue) { [unowned self] _ in
                self.logger.info("SIGHUP received.")
            }
            handle.keepsLoopAlive = false
            shutdownSignals.append(handle)
        } catch {
            logger.error("Cannot catch SIGHUP: \(error)")
        }
    }

    private func received(_ signal: Int32, name: ProcessSignal.Name) {
        switch phase {
        case .starting:
            if pendingStatus == nil { pendingStatus = 0 }
        case .running:
            beginShutdown(status: 0, reason: "\(name)")
        case .shuttingDown:
            logger.warning("\(name) during shutdown: exiting at once.")
            fflush(nil)
            _exit(128 + signal)
        }
    }

    private func beginShutdown(status: Int32, reason: String) {
        guard phase == .running else { return }
        phase = .shuttingDown
        exitStatus = status
        logger.info("Shutting down (\(reason)).")
        armDeadline()
        willShutDown.send()
        tree?.destroy()
    }

    private func armDeadline() {
        do {
            let timer = try TimerHandle(loop: loop)
            timer.start(after: configuration.shutdownDeadline) { [unowned self] in
                self.deadlinePassed()
            }
            timer.keepsLoopAlive = false
            deadline = timer
        } catch {
            logger.error("Cannot arm the shutdown deadline: \(error)")
        }
    }

    private func deadlinePassed() {
        let open = loop.openHandleCount - shutdownSignals.count - 1
        logger.error("Shutdown deadline of \(configuration.shutdownDeadline) passed with \(open) handle(s) still open; closing them by force.")
        exitStatus = configuration.forcedExitStatus
        loop.closeAllHandles()
    }

    private func finish() -> Never {
        deadline?.close()
        for handle in shutdownSignals { handle.close() }
        shutdownSignals = []
        loop.tearDown()
        fflush(nil)
        exit(exitStatus)
    }
}
