import Compose
internal import CLibUV
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The parent of the workers mode (see ``WorkerOptions``): starts the
/// workers, starts again those that die, passes signals on, and exits once
/// they all have. It runs on the app's event loop but binds no tree.
@MainActor
final class WorkerSupervisor {
    /// One worker's slot: the process running in it, if any.
    private struct Slot {
        var process: ProcessHandle?
        var pid: Int32 = 0
        var startedAt: UInt64 = 0
        var restartTimer: TimerHandle?
    }

    private let context: AppContext
    private let loop: EventLoop
    private let options: WorkerOptions
    private let count: Int
    private let shutdownSignals: [ProcessSignal.Name]
    private let shutdownDeadline: Duration
    private let forcedExitStatus: Int32
    /// A number in `0..<1` for each restart's jitter.
    private let random: () -> Double
    private var slots: [Slot]
    private var restarts: WorkerRestarts
    /// What the workers said through ``channel``, and so what systemd is
    /// told.
    private var readiness: WorkerReadiness
    /// The workers' `$NOTIFY_SOCKET`, under systemd only.
    private var channel: WorkerNotifyChannel?
    private var signalHandles: [SignalHandle] = []
    private var deadline: TimerHandle?
    /// Why the workers are being stopped, once they are.
    private var stopping: StopReason?
    /// The first status other than 0 a worker exited with while stopping.
    private var firstFailure: Int32?

    private enum StopReason {
        case signal
        case restartLimit
        case deadline
        case usageError
    }

    /// - Parameters:
    ///   - count: How many workers (at least 1).
    ///   - random: The jitter's random source (numbers in `0..<1`).
    init(
        context: AppContext,
        loop: EventLoop,
        options: WorkerOptions,
        count: Int,
        configuration: StartupConfiguration,
        random: @escaping () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.context = context
        self.loop = loop
        self.options = options
        self.count = max(1, count)
        shutdownSignals = configuration.shutdownSignals
        shutdownDeadline = configuration.shutdownDeadline
        forcedExitStatus = configuration.forcedExitStatus
        self.random = random
        slots = Array(repeating: Slot(), count: max(1, count))
        restarts = WorkerRestarts(options: options)
        readiness = WorkerReadiness(count: max(1, count))
    }

    private var logger: Logger { context.logger }

    /// Runs the workers until they have all exited, then exits the process
    /// with the status ``WorkerOptions`` documents.
    ///
    /// Under systemd (`Type=notify`) the parent is the service's main
    /// process and speaks for the workers, whose `$NOTIFY_SOCKET` is the
    /// parent's own (``WorkerNotifyChannel``): `READY=1` once every worker
    /// said it is ready, a `STATUS=` line with how many are,
    /// `RELOADING=1` at `SIGHUP` and `READY=1` once every worker has
    /// reloaded, `STOPPING=1` when it stops them, the workers'
    /// `EXTEND_TIMEOUT_USEC=` while they drain, and the watchdog pings
    /// from its own loop (see ``WorkerReadiness``).
    func run(systemd: SystemdEnvironment) -> Never {
        guard installSignals() else { exit(1) }
        logger.info("Workers mode: starting \(count) worker(s) of \(CommandLine.arguments.first ?? "the app") (parent pid \(getpid())).")
        context.systemd.start(environment: systemd)
        if context.systemd.isEnabled { openChannel() }
        for index in slots.indices { start(index) }
        // Without a channel, all the parent knows is that it started them.
        if channel == nil { context.systemd.notify("READY=1") }
        loop.run()
        finish()
    }

    /// The `STATUS=` line: how many workers are ready.
    private func updateStatus() {
        context.systemd.status = readiness.status
    }

    // MARK: Workers

    private func start(_ index: Int) {
        slots[index].restartTimer?.close()
        slots[index].restartTimer = nil
        guard stopping == nil else { return }
        let inherited = loop.launch.environment.inheritedSockets
        var stdio: [ProcessHandle.Stdio] = [.ignore, .inherit(STDOUT_FILENO), .inherit(STDERR_FILENO)]
        // Descriptor 3 + i of the worker is the parent's 3 + i.
        for socket in inherited where socket.fd == Int32(stdio.count) { stdio.append(.inherit(socket.fd)) }
        var variables = [
            LaunchEnvironment.workerVariable: "\(index)",
            LaunchEnvironment.workerParentVariable: "\(getpid())",
        ]
        if let channel { variables["NOTIFY_SOCKET"] = channel.address }
        let environment = ChildProcess.Environment.inherit(adding: variables).resolved()
        do {
            let process = try ProcessHandle(
                loop: loop,
                file: "/proc/self/exe",
                arguments: Array(CommandLine.arguments.dropFirst()),
                environment: environment.map { $0.map { "\($0.key)=\($0.value)" } },
                workingDirectory: nil,
                stdio: stdio,
                describing: CommandLine.arguments.first ?? "/proc/self/exe",
                argumentZero: CommandLine.arguments.first
            ) { [unowned self] status, signal in
                self.exited(index, status: status, signal: signal)
            }
            slots[index].process = process
            slots[index].pid = process.pid
            slots[index].startedAt = loop.nanoseconds
            readiness.started(index)
            logger.info("Worker \(index) started: pid \(process.pid).")
            updateStatus()
        } catch {
            logger.error("Worker \(index) cannot start: \(error)")
            // As a failure at once: the backoff spaces the attempts, the
            // restart limit ends them.
            decide(index, status: 1, signal: 0, ranFor: .zero)
        }
    }

    private func exited(_ index: Int, status: Int64, signal: Int32) {
        let slot = slots[index]
        slot.process?.close()
        slots[index].process = nil
        answer(readiness.exited(index).map { [$0] } ?? [])
        let ranFor = Duration.nanoseconds(Int64(clamping: loop.nanoseconds &- slot.startedAt))
        let how = signal != 0 ? "was killed by signal \(signal)" : "exited with status \(status)"
        if stopping != nil {
            logger.info("Worker \(index) (pid \(slot.pid)) \(how).")
            if firstFailure == nil, signal != 0 || status != 0 {
                firstFailure = signal != 0 ? 128 + signal : Int32(truncatingIfNeeded: status)
            }
            stopIfNoneLeft()
            return
        }
        decide(index, status: status, signal: signal, ranFor: ranFor, how: "Worker \(index) (pid \(slot.pid)) \(how)")
    }

    private func decide(_ index: Int, status: Int64, signal: Int32, ranFor: Duration, how: String? = nil) {
        switch restarts.workerExited(index, status: status, signal: signal, ranFor: ranFor, now: loop.nanoseconds, jitterUnit: random()) {
        case .leave:
            logger.info("\(how ?? "Worker \(index) exited"): not restarted.")
            stopIfNoneLeft()
        case .restart(let delay):
            if let how { logger.warning("\(how): starting it again in \(Self.milliseconds(delay)) ms.") }
            do {
                let timer = try TimerHandle(loop: loop)
                timer.start(after: delay) { [unowned self] in self.start(index) }
                slots[index].restartTimer = timer
            } catch {
                logger.error("Cannot arm the restart of worker \(index): \(error)")
                stopIfNoneLeft()
            }
        case .giveUp:
            logger.critical("\(how ?? "Worker \(index) failed"): more than \(options.maximumRestarts) restarts within \(options.restartPeriod); stopping every worker.")
            stop(.restartLimit, signal: SIGTERM)
        case .usageError:
            logger.critical("\(how ?? "Worker \(index) failed"): its command line is wrong (usage error), as every worker's is; stopping every worker.")
            stop(.usageError, signal: SIGTERM)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    /// Exits the loop once no worker runs or waits for its restart.
    private func stopIfNoneLeft() {
        guard slots.allSatisfy({ $0.process == nil && $0.restartTimer == nil }) else { return }
        loop.stop()
    }

    // MARK: Readiness

    /// Opens the workers' notify socket; without it (it cannot be made)
    /// the parent says `READY=1` once it has started them, as it knows no
    /// better.
    private func openChannel() {
        do {
            channel = try WorkerNotifyChannel(loop: loop) { [unowned self] pid, datagram in
                self.received(datagram, from: pid)
            }
        } catch {
            logger.warning("Workers mode: cannot open the workers' notify socket (\(error)); READY=1 is sent once they are started, not once they are ready.")
        }
    }

    /// A notification from the worker `pid`; dropped unless `pid` is one.
    private func received(_ datagram: [UInt8], from pid: Int32) {
        guard pid > 0, let index = slots.firstIndex(where: { $0.process != nil && $0.pid == pid }) else {
            channel?.dropped()
            logger.debug("Workers mode: a notification from pid \(pid), which is no worker, was dropped.")
            return
        }
        let wasReady = readiness.hasBeenReady
        answer(readiness.received(WorkerReadiness.assignments(of: datagram), from: index, now: loop.nanoseconds))
        if !wasReady, readiness.hasBeenReady { logger.info("Workers mode: all \(count) workers are ready.") }
    }

    /// Sends systemd what the workers' notifications call for, and the
    /// status line.
    private func answer(_ answers: [WorkerReadiness.Answer]) {
        for answer in answers {
            switch answer {
            case .ready:
                context.systemd.notify("READY=1")
            case .extendTimeout(let microseconds):
                context.systemd.extendTimeout(by: .microseconds(microseconds))
            }
        }
        updateStatus()
    }

    // MARK: Signals

    private func installSignals() -> Bool {
        var names = shutdownSignals
        if !names.contains(.hangup) { names.append(.hangup) }
        for name in names {
            do {
                let handle = try SignalHandle(loop: loop)
                try handle.start(name.rawValue) { [unowned self] number in self.received(number, name: name) }
                handle.keepsLoopAlive = false
                signalHandles.append(handle)
            } catch {
                logger.critical("Workers mode: cannot handle \(name): \(error)")
                return false
            }
        }
        return true
    }

    private func received(_ number: Int32, name: ProcessSignal.Name) {
        guard shutdownSignals.contains(name) else {
            logger.info("\(name) received: passing it on to the workers.")
            if channel != nil, stopping == nil, name == .hangup {
                context.systemd.reloading()
                forward(number)
                answer(readiness.reloadBegan().map { [$0] } ?? [])
            } else {
                forward(number)
            }
            return
        }
        if stopping == nil {
            logger.info("\(name) received: stopping the workers.")
            stop(.signal, signal: number)
        } else {
            logger.warning("\(name) again: passing it on (the workers exit at once).")
            forward(number)
        }
    }

    /// Stops every worker: cancels pending restarts, sends `signal`, and
    /// arms the deadline.
    private func stop(_ reason: StopReason, signal: Int32) {
        guard stopping == nil else { return }
        stopping = reason
        context.systemd.notify("STOPPING=1")
        readiness.stoppingBegan()
        updateStatus()
        for index in slots.indices {
            slots[index].restartTimer?.close()
            slots[index].restartTimer = nil
        }
        forward(signal)
        do {
            let timer = try TimerHandle(loop: loop)
            timer.start(after: shutdownDeadline + options.stopGracePeriod) { [unowned self] in self.deadlinePassed() }
            timer.keepsLoopAlive = false
            deadline = timer
        } catch {
            logger.error("Cannot arm the workers' deadline: \(error)")
        }
        stopIfNoneLeft()
    }

    private func forward(_ signal: Int32) {
        for slot in slots {
            guard let process = slot.process else { continue }
            do {
                try process.kill(signal)
            } catch {
                logger.debug("Worker pid \(slot.pid): \(error)")
            }
        }
    }

    private func deadlinePassed() {
        let left = slots.compactMap { $0.process == nil ? nil : $0.pid }
        guard !left.isEmpty else { return }
        logger.error("Workers \(left) still run \(shutdownDeadline + options.stopGracePeriod) after the shutdown began: killing them.")
        stopping = .deadline
        forward(SIGKILL)
    }

    // MARK: Exit

    private var exitStatus: Int32 {
        switch stopping {
        case .restartLimit: WorkerOptions.restartLimitExitStatus
        case .usageError: AppConfiguration.usageErrorExitStatus
        case .deadline: forcedExitStatus
        case .signal, nil: firstFailure ?? 0
        }
    }

    private func finish() -> Never {
        let status = exitStatus
        channel?.close()
        channel = nil
        deadline?.close()
        for handle in signalHandles { handle.close() }
        signalHandles = []
        loop.processGroups.killAll()
        loop.tearDown()
        logger.info("Workers mode: every worker has exited; exiting with status \(status).")
        fflush(nil)
        exit(status)
    }
}

extension WorkerSupervisor {
    /// What `StartupComponent.main()` does with the runtime's settings
    /// (``RuntimeSettings``) once the app's configuration is read: turns
    /// `reusePort` on for every `TCPServer` if asked, sets the loop's
    /// busy polling (`busyPollMicroseconds`); in the workers mode's
    /// parent (the setting `workers`, or ``WorkerOptions/count``, above 0
    /// and no `COMPOSE_WORKER`), runs the workers and never returns; in a
    /// worker, asks for `SIGTERM` when the parent dies (and exits if it
    /// already has).
    static func takeOverIfAsked(context: AppContext, loop: EventLoop, configuration: StartupConfiguration, systemd: SystemdEnvironment) {
        let settings = RuntimeSettings(context.configuration, workers: configuration.workers.count, busyPolling: configuration.busyPolling)
        loop.launch.reusesPorts = settings.reusePort
        loop.busyPolling = settings.busyPolling
        let launch = loop.launch.environment
        guard let index = launch.workerIndex else {
            guard settings.workers > 0 else { return }
            WorkerSupervisor(context: context, loop: loop, options: configuration.workers, count: settings.workers, configuration: configuration)
                .run(systemd: systemd)
        }
        if compose_set_parent_death_signal(SIGTERM) != 0 {
            context.logger.warning("Worker \(index): cannot ask for SIGTERM at the parent's death: \(LoopError("prctl(PR_SET_PDEATHSIG)", errno: errno)).")
        }
        if let parent = launch.workerParentID, getppid() != parent {
            context.logger.critical("Worker \(index): its parent (pid \(parent)) is gone before it started; exiting.")
            fflush(nil)
            exit(1)
        }
    }
}
