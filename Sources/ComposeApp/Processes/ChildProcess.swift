import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// A child process on the event loop: its standard output and error as
/// lines, its exit as an emitter, and optionally its standard input.
///
/// ```swift
/// struct Backup: Component {
///     let rsync = ChildProcess("/usr/bin/rsync", arguments: ["-a", "data/", "backup/"])
///     let nightly = LoopTimer(every: .seconds(86_400))
///     var observers: Void {
///         nightly += { try? rsync.start() }
///         rsync.output += { line in print("rsync:", line) }
///         rsync.didExit += { termination in print("rsync", termination) }
///     }
/// }
/// ```
///
/// **Starting.** ``start()`` spawns the executable (looked up in `PATH` when
/// it has no `/`) with ``arguments``, ``environment`` (by default this
/// process's, see ``Environment``), ``workingDirectory``, and, when given,
/// ``user`` and ``group``. A missing executable or working
/// directory makes ``start()`` throw at once (`ENOENT`, naming the
/// executable); nothing is left open. A process can be started again after
/// ``didExit``. Inside a component it is not started for you unless it was
/// made with `startsWithComponent: true`.
///
/// **Output, then exit.** Standard output and error are read from pipes and
/// split into lines (without `\n` or `\r\n`); a last line without a newline
/// is sent when the pipe ends. libuv may report the exit before the pipes
/// are read to their end, so ``didExit`` is held back until both pipes have
/// ended: every line the child wrote arrives on ``output`` and
/// ``errorOutput`` before ``didExit``. (If the child left a descendant that
/// keeps a pipe open, what is buffered is read 200 ms after the exit, the
/// pipe is closed and ``didExit`` is sent; later output of the descendant is
/// not read.) The relative order of ``output`` and ``errorOutput`` lines is
/// not preserved: they are separate pipes. A line longer than
/// ``maximumLineLength`` (64 KiB by default) is reported on ``errors`` and
/// skipped.
///
/// **Standard input.** Made with `acceptsInput: true`, the child reads a
/// pipe that ``write(_:)-(String)`` feeds and ``closeInput()`` ends (after
/// every queued write). Otherwise its standard input is `/dev/null`.
/// The runtime ignores `SIGPIPE`, so a write to a child that has exited
/// fails with `EPIPE` on ``errors`` instead of killing the app; children
/// start with default signal dispositions.
///
/// **Process group.** The child runs in a session and process group of its
/// own (libuv's `UV_PROCESS_DETACHED`, a `setsid()` in the child; the
/// group's ID is the child's ``pid``), and every way of stopping it signals
/// the whole group, so `sh -c 'sleep 300 & sleep 301 & wait'` leaves
/// nothing behind. The group outlives its leader: after the child exited,
/// ``terminate()``, ``kill(_:)`` and ``close()`` still signal what it left
/// in its group. A descendant that moves to a group of its own (`setsid`,
/// a daemonising double fork) is out of reach. Because the child has no
/// controlling terminal, a Ctrl-C typed at the app's terminal reaches only
/// the app, which then stops its children as below.
///
/// **Termination policy.** ``terminate()`` sends `SIGTERM` to the group,
/// then `SIGKILL` if the child (or, after its exit, anything left in its
/// group) is still running after ``terminationGracePeriod`` (2 s by
/// default). A component's child is terminated this way when the component
/// disappears, and when it is destroyed (``close()``); the app's graceful
/// shutdown destroys the tree, so it terminates every child it owns and
/// waits for their exit (within the shutdown deadline). Past the deadline,
/// and when a second signal ends the app at once, every group of the app's
/// children that still has a member is killed with `SIGKILL` before the
/// process exits; so is, at the app's exit, any group a child left behind.
/// The process handle is closed only after libuv's exit callback, so no
/// child is left a zombie, and the pipes are read to their end and closed.
///
/// **When the app itself dies.** Linux can tell a child to die with its
/// parent (`prctl(PR_SET_PDEATHSIG)`), but only from code the child runs
/// between `fork` and `exec`, which libuv does not offer; this type does
/// not set it. So an app killed by `SIGKILL` (or crashing) leaves its
/// children running. Run a daemon under systemd with the default
/// `KillMode=control-group`, which kills every process of the service's
/// cgroup when the service stops or dies. For one child, a wrapper can set
/// the flag before exec:
/// `ChildProcess("setpriv", arguments: ["--pdeathsig", "KILL", "--", "worker"])`
/// (util-linux 2.33 or later); it reaches that process only, not what it
/// starts, and fires when the app's main thread exits.
///
/// **Not offered: resource limits and umask.** libuv sets no `rlimit` and
/// no umask in the child, and setting them in the app before the spawn
/// would change them for the app (and race with other spawns). Use a
/// wrapper instead: `prlimit --nofile=256 --as=1073741824 --cpu=60 -- tool`
/// (util-linux), or
/// `ChildProcess("/bin/sh", arguments: ["-c", "ulimit -n 256; umask 027; exec tool"])`.
///
/// **Lifetime.** A started process keeps itself (and the loop) alive until
/// ``didExit`` has been sent: dropping the last reference to a running
/// `ChildProcess` does not kill the child; call ``terminate()`` or
/// ``close()``.
///
/// **In a test context** (`TestApp`) nothing is spawned: ``start()`` runs the
/// script the test gave for the executable (`app.scriptProcess("rsync")`),
/// which writes the output, reads the input, receives the signals and
/// exits; an executable nobody scripted fails as a missing one does
/// (`ENOENT`). Everything above holds, on virtual time.
@MainActor
public final class ChildProcess: EmitterProtocol, LoopResource, ReadableStream, WritableStream {
    /// Each line the child writes to its standard output.
    public let output = Emitter<String>()
    /// Each line the child writes to its standard error.
    public let errorOutput = Emitter<String>()
    /// Sent once per run, after the last line of output (see the type's
    /// documentation for the order).
    public let didExit = Emitter<Termination>()
    /// Failures after ``start()``: reading a pipe, writing the input,
    /// signalling the child. Also logged.
    public let errors = Emitter<LoopError>()
    /// Sent when the child's input queue, once it reached
    /// ``inputHighWaterMark``, is back at ``inputLowWaterMark``: writing may
    /// go on.
    public let drained = SignalEmitter()
    /// Bytes written to the child's input that it has not read yet (beyond
    /// what the pipe holds).
    public private(set) var queuedInputBytes = 0
    /// The input queue size at which ``write(_:)-([UInt8])`` says
    /// ``WriteResult/full``. 1 MiB by default.
    public var inputHighWaterMark = 1 << 20
    /// Once full, the input queue size at which ``drained`` is sent.
    /// 256 KiB by default.
    public var inputLowWaterMark = 256 << 10
    /// Whether the input queue reached ``inputHighWaterMark`` and has not
    /// drained yet.
    public private(set) var isInputFull = false

    /// The executable: a path, or a name looked up in `PATH`.
    public let executable: String
    /// The arguments after `argv[0]` (which is ``executable``).
    public let arguments: [String]
    /// The child's environment: inherited (the default), inherited with
    /// additions, or clean (see ``Environment``).
    public let environment: Environment
    /// The user ID the child runs as, or `nil` for this process's (see
    /// ``init(_:arguments:environment:workingDirectory:user:group:acceptsInput:startsWithComponent:)``).
    public let user: UInt32?
    /// The group ID the child runs as, or `nil` for this process's.
    public let group: UInt32?
    /// Where the child starts, or `nil` for this process's directory.
    public let workingDirectory: String?
    /// Whether the child's standard input is a pipe ``write(_:)-(String)``
    /// feeds (otherwise it is `/dev/null`).
    public let acceptsInput: Bool
    /// How long ``terminate()`` waits after `SIGTERM` before `SIGKILL`.
    public var terminationGracePeriod: Duration = .seconds(2)
    /// The longest line ``output`` and ``errorOutput`` accept (64 KiB
    /// unless set; see ``LineLengthLimit``).
    ///
    /// A longer line is not sent: a ``LoopError/Code/lineTooLong`` error
    /// (naming the executable, the stream and the limit) is logged and sent
    /// on ``errors``, the rest of the line is read and dropped up to its
    /// newline, and the lines after it are sent as usual; the child goes on
    /// running. So at most the limit plus one read is buffered per pipe,
    /// whatever the child writes.
    public var maximumLineLength: LineLengthLimit = .default {
        didSet {
            outputLines.limit = maximumLineLength.bytes
            errorLines.limit = maximumLineLength.bytes
        }
    }

    /// The process ID of the child last started (kept after it exits), or
    /// `nil` before the first ``start()``.
    public private(set) var pid: Int32?
    /// How the last run ended, once ``didExit`` was sent.
    public private(set) var termination: Termination?
    /// Whether the child is running (started, and libuv has not reported
    /// its exit yet).
    public var isRunning: Bool { phase == .running }

    private enum Phase {
        /// Never started, or the last run is over (``didExit`` was sent).
        case idle
        /// The child runs.
        case running
        /// The child exited; its pipes are being read to their end.
        case draining
    }

    private enum Stream {
        case output, error
    }

    /// Whether the child starts when its component appears (failures are
    /// then logged and sent on ``errors``).
    public let startsWithComponent: Bool
    private var phase = Phase.idle
    private var isClosed = false
    private var process: ProcessHandle?
    /// The loop of the current or last run.
    private var loop: EventLoop?
    private var outputPipe: StreamHandle?
    private var errorPipe: StreamHandle?
    private var inputPipe: StreamHandle?
    private var outputLines = LineBuffer()
    private var errorLines = LineBuffer()
    private var pendingTermination: Termination?
    private var killTimer: TimerHandle?
    private var drainTimer: TimerHandle?
    /// The process groups of earlier or current runs whose leader exited
    /// while other members may live on: still signalled by ``terminate()``,
    /// ``kill(_:)`` and ``close()`` (see "Process group").
    private var lingeringGroups: Set<Int32> = []
    /// In a test context: the scripted run under way.
    private var simulated: SimulatedProcess?
    /// Holds this object while a run is under way (see "Lifetime").
    private var retainedWhileRunning: ChildProcess?

    /// How long, after the exit, pipes still held open by a descendant are
    /// waited for.
    static let drainTimeout: Duration = .milliseconds(200)

    /// Describes a child process; ``start()`` runs it.
    ///
    /// - Parameters:
    ///   - executable: A path (`/bin/sh`), or a name looked up in `PATH`.
    ///   - arguments: The arguments after `argv[0]`.
    ///   - environment: `.inherit` (the default) for this process's
    ///     environment, `.inherit(adding:)` to set variables on top of it,
    ///     `.clean([...])` (or a dictionary literal) for only the given ones.
    ///   - workingDirectory: Where the child starts; `nil` for this
    ///     process's current directory.
    ///   - user: The user ID the child runs as (`setuid` in the child, after
    ///     `setgid`; libuv also drops supplementary groups), or `nil` (the
    ///     default) to keep this process's. Needs privileges: when the
    ///     child cannot take it, ``start()`` throws
    ///     ``LoopError/Code/operationNotPermitted``.
    ///   - group: The group ID the child runs as (`setgid`), or `nil`.
    ///   - acceptsInput: `true` to write to the child's standard input.
    ///   - startsWithComponent: `true` to start the child when its
    ///     component appears (failures are then logged and sent on
    ///     ``errors``).
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: Environment = .inherit,
        workingDirectory: String? = nil,
        user: UInt32? = nil,
        group: UInt32? = nil,
        acceptsInput: Bool = false,
        startsWithComponent: Bool = false
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.user = user
        self.group = group
        self.acceptsInput = acceptsInput
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        // Reached only when no run is under way (a run retains `self`).
        process?.close()
        outputPipe?.close()
        errorPipe?.close()
        inputPipe?.close()
        killTimer?.close()
        drainTimer?.close()
    }

    /// The child's standard output lines (the process is an emitter of them).
    public var emitter: Emitter<String> { output }

    // MARK: Running

    /// Spawns the child. Does nothing (and logs) while a run is under way or
    /// after ``close()``.
    ///
    /// - Throws: `uv_spawn`'s ``LoopError``, e.g. `ENOENT` naming the
    ///   executable when it (or the working directory) does not exist,
    ///   ``LoopError/Code/operationNotPermitted`` (`EPERM`) when the child
    ///   cannot take ``user`` or ``group``.
    ///   Everything opened for the spawn is closed before the throw.
    public func start() throws(LoopError) {
        guard !isClosed else {
            logger.warning("ChildProcess(\(executable)).start() after close(): ignored.")
            return
        }
        guard phase == .idle else {
            logger.warning("ChildProcess(\(executable)).start() while it is running: ignored.")
            return
        }
        // A termination of what an earlier run left behind must not reach
        // this run when its grace period ends.
        killTimer?.close()
        killTimer = nil
        if let processes = (output.ownerContext ?? AppContext.current)?.simulatedProcesses {
            try startSimulated(processes)
            return
        }
        var opened: [StreamHandle] = []
        let process: ProcessHandle
        let outputPipe: StreamHandle, errorPipe: StreamHandle, inputPipe: StreamHandle?
        let loop: EventLoop
        do {
            loop = try EventLoop.resolve(output.ownerContext, for: "ChildProcess(\(executable)).start")
            outputPipe = try StreamHandle(loop: loop)
            opened.append(outputPipe)
            errorPipe = try StreamHandle(loop: loop)
            opened.append(errorPipe)
            if acceptsInput {
                let pipe = try StreamHandle(loop: loop)
                opened.append(pipe)
                inputPipe = pipe
            } else {
                inputPipe = nil
            }
            process = try ProcessHandle(
                loop: loop,
                file: executable,
                arguments: arguments,
                environment: environment.resolved().map { $0.map { "\($0.key)=\($0.value)" }.sorted() },
                workingDirectory: workingDirectory,
                user: user,
                group: group,
                stdio: [inputPipe.map { .inputPipe($0) } ?? .ignore, .outputPipe(outputPipe), .outputPipe(errorPipe)],
                onExit: { [weak self] status, signal in
                    self?.exited(status: status, signal: signal)
                }
            )
        } catch {
            for pipe in opened { pipe.close() }
            throw error
        }
        self.process = process
        self.outputPipe = outputPipe
        self.errorPipe = errorPipe
        self.inputPipe = inputPipe
        self.loop = loop
        outputLines = LineBuffer(limit: maximumLineLength)
        errorLines = LineBuffer(limit: maximumLineLength)
        pid = process.pid
        phase = .running
        retainedWhileRunning = self
        queuedInputBytes = 0
        isInputFull = false
        inputPipe?.onWriteCompleted = { [weak self] count, error in self?.inputWritten(count, error) }
        read(outputPipe, as: .output)
        read(errorPipe, as: .error)
    }

    /// Sends `signal` to the running child's process group (`SIGTERM` by
    /// default), or, once the child exited, to what it left in its group.
    /// Does nothing (and logs) when neither runs; a failure goes to
    /// ``errors``.
    public func kill(_ signal: ProcessSignal.Name = .terminate) {
        if let simulated, phase == .running {
            simulated.kill(signal)
            return
        }
        if phase != .running, signalLingeringGroups(signal.rawValue) { return }
        guard phase == .running, let process else {
            logger.warning("ChildProcess(\(executable)).kill(\(signal)) while it is not running: ignored.")
            return
        }
        do {
            try process.kill(signal.rawValue)
        } catch {
            report(error)
        }
    }

    /// Terminates the running child politely: `SIGTERM` to its group now,
    /// `SIGKILL` if it still runs after ``terminationGracePeriod``. After
    /// the child exited, does the same to what it left in its group.
    /// Idempotent while a termination is under way; does nothing when
    /// nothing runs.
    public func terminate() {
        if let simulated {
            terminateSimulated(simulated)
            return
        }
        guard killTimer == nil else { return }
        if phase == .running {
            kill(.terminate)
        } else if !signalLingeringGroups(SIGTERM) {
            return
        }
        do {
            let timer = try TimerHandle(loop: runLoop())
            timer.keepsLoopAlive = false
            timer.start(after: terminationGracePeriod) { [weak self] in
                self?.gracePeriodEnded()
            }
            killTimer = timer
        } catch {
            report(error)
        }
    }

    /// Ends this process object for good: closes the input, terminates a
    /// running child (see ``terminate()``) and closes every handle once it
    /// has exited; ``start()`` does nothing afterwards. Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        closeInput()
        terminate()
    }

    // MARK: Input

    /// Queues the UTF-8 bytes of `text` for the child's standard input.
    /// Needs `acceptsInput: true` and a running child (otherwise logged and
    /// ignored, ``WriteResult/closed``); a failed write goes to ``errors``.
    /// A child that does not read makes the queue grow: at
    /// ``inputHighWaterMark`` the write says ``WriteResult/full``; wait for
    /// ``drained`` (or relay into the child, which does).
    @discardableResult
    public func write(_ text: String) -> WriteResult {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Queues `bytes` for the child's standard input.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> WriteResult {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Queues the bytes in `buffer` (copied) for the child's standard input.
    @discardableResult
    public func write(_ buffer: UnsafeRawBufferPointer) -> WriteResult {
        if let simulated, phase == .running, !simulated.isInputClosedByApp {
            simulated.write(buffer)
            return .written
        }
        guard let inputPipe, phase == .running else {
            let reason = !acceptsInput ? "it was made without acceptsInput" : phase != .running ? "it is not running" : "its input is closed"
            logger.warning("ChildProcess(\(executable)).write: ignored, \(reason).")
            return .closed
        }
        guard buffer.count > 0 else { return isInputFull ? .full : .queued }
        queuedInputBytes += buffer.count
        inputPipe.write(copying: buffer)
        guard self.inputPipe != nil else { return .closed }
        if queuedInputBytes >= inputHighWaterMark {
            isInputFull = true
            return .full
        }
        return .queued
    }

    /// A write to the child's input finished (or failed).
    private func inputWritten(_ count: Int, _ error: LoopError?) {
        queuedInputBytes = max(0, queuedInputBytes - count)
        if let error {
            if error.kind != .cancelled { inputFailed(error) }
            return
        }
        if isInputFull, queuedInputBytes <= inputLowWaterMark {
            isInputFull = false
            drained.send()
        }
    }

    /// Ends the child's standard input once every queued write is done:
    /// the child reads end of input. Idempotent.
    public func closeInput() {
        simulated?.closeInput()
        inputPipe?.closeAfterWrites()
        inputPipe = nil
    }

    // MARK: Events

    private func read(_ pipe: StreamHandle, as stream: Stream) {
        do {
            try pipe.startReading({ [weak self] bytes in
                self?.received(bytes, on: stream)
            }, onError: { [weak self] error in
                self?.report(error)
                self?.ended(stream)
            })
        } catch {
            report(error)
            ended(stream)
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer?, on stream: Stream) {
        guard let bytes else {
            ended(stream)
            return
        }
        switch stream {
        case .output:
            for piece in outputLines.append(bytes) { deliver(piece, to: output, name: "output") }
        case .error:
            for piece in errorLines.append(bytes) { deliver(piece, to: errorOutput, name: "errorOutput") }
        }
    }

    /// Sends a line, or reports a line over ``maximumLineLength`` (which is
    /// skipped: see the property).
    private func deliver(_ piece: LineBuffer.Piece, to lines: Emitter<String>, name: String) {
        switch piece {
        case .line(let line):
            lines.send(line)
        case .tooLong:
            report(.lineTooLong("ChildProcess.\(name)", limit: maximumLineLength.bytes ?? 0, context: executable))
        }
    }

    /// A pipe reached its end (or failed): flushes its last line, closes it.
    private func ended(_ stream: Stream) {
        switch stream {
        case .output:
            guard let pipe = outputPipe else { return }
            outputPipe = nil
            pipe.close()
            if let last = outputLines.finish() { output.send(last) }
        case .error:
            guard let pipe = errorPipe else { return }
            errorPipe = nil
            pipe.close()
            if let last = errorLines.finish() { errorOutput.send(last) }
        }
        finishIfDrained()
    }

    private func exited(status: Int64, signal: Int32) {
        pendingTermination = Termination(status: status, signal: signal == 0 ? nil : signal)
        phase = .draining
        // The handle pruned the group at the exit: still registered means
        // another member lives on (see "Process group").
        if let pid, let loop, simulated == nil, loop.processGroups.ids.contains(pid) {
            lingeringGroups.insert(pid)
        }
        if lingeringGroups.isEmpty {
            killTimer?.close()
            killTimer = nil
        }
        // The exit callback has run: closing the handle is safe now.
        process?.close()
        process = nil
        inputPipe?.close()
        inputPipe = nil
        if outputPipe != nil || errorPipe != nil {
            armDrainTimer()
        }
        finishIfDrained()
    }

    private func armDrainTimer() {
        do {
            let timer = try TimerHandle(loop: runLoop())
            timer.start(after: Self.drainTimeout) { [weak self] in
                self?.drainNow()
            }
            drainTimer = timer
        } catch {
            report(error)
            drainNow()
        }
    }

    /// A descendant still holds a pipe open: reads what is buffered, then
    /// ends the pipes.
    private func drainNow() {
        drainTimer?.close()
        drainTimer = nil
        if let pipe = outputPipe {
            _ = pipe.readAvailable { bytes in received(bytes, on: .output) }
            ended(.output)
        }
        if let pipe = errorPipe {
            _ = pipe.readAvailable { bytes in received(bytes, on: .error) }
            ended(.error)
        }
    }

    private func finishIfDrained() {
        guard phase == .draining, outputPipe == nil, errorPipe == nil, let result = pendingTermination else { return }
        drainTimer?.close()
        drainTimer = nil
        pendingTermination = nil
        termination = result
        phase = .idle
        let retained = retainedWhileRunning
        retainedWhileRunning = nil
        withExtendedLifetime(retained) {
            didExit.send(result)
        }
    }

    private func gracePeriodEnded() {
        killTimer?.close()
        killTimer = nil
        guard phase == .running else {
            if signalLingeringGroups(SIGKILL) {
                logger.warning("ChildProcess(\(executable)): what pid \(pid ?? 0) left in its group still runs \(terminationGracePeriod) after SIGTERM: sending SIGKILL.")
            }
            return
        }
        logger.warning("ChildProcess(\(executable)) pid \(pid ?? 0) still runs \(terminationGracePeriod) after SIGTERM: sending SIGKILL.")
        kill(.kill)
    }

    /// Sends `signal` to the groups earlier runs left behind, forgetting
    /// those that are empty. Returns whether one was signalled.
    private func signalLingeringGroups(_ signal: Int32) -> Bool {
        guard let loop, !lingeringGroups.isEmpty else { return false }
        var signalled = false
        for group in lingeringGroups {
            if loop.processGroups.signal(group, signal) == 0 {
                signalled = true
            } else {
                lingeringGroups.remove(group)
            }
        }
        return signalled
    }

    /// The loop of the current run (timers of a termination or a drain).
    private func runLoop() throws(LoopError) -> EventLoop {
        if let loop { return loop }
        return try EventLoop.resolve(output.ownerContext, for: "ChildProcess(\(executable)) timer")
    }

    private func report(_ error: LoopError) {
        logger.error("ChildProcess(\(executable)): \(error)")
        errors.send(error)
    }

    /// A write to the child's input failed. `EPIPE` means the child closed
    /// its input or exited: an expected event, not a failure of the app, so
    /// it is reported on ``errors`` once and the input is closed (later
    /// writes are ignored).
    private func inputFailed(_ error: LoopError) {
        guard let pipe = inputPipe else { return }
        inputPipe = nil
        queuedInputBytes = 0
        isInputFull = false
        pipe.close()
        if error.isPeerGone {
            logger.debug("ChildProcess(\(executable)) closed its input: \(error)")
            errors.send(error)
        } else {
            report(error)
        }
    }

    // MARK: Simulated runs (a test context; see SimulatedProcess)

    /// Starts the scripted run of a test context instead of spawning.
    private func startSimulated(_ processes: SimulatedProcesses) throws(LoopError) {
        let run = try processes.spawn(
            executable: executable,
            arguments: arguments,
            environment: environment.resolved(),
            workingDirectory: workingDirectory,
            acceptsInput: acceptsInput
        )
        run.onOutput = { [weak self] bytes, isError in
            self?.received(bytes, on: isError ? .error : .output)
        }
        run.onInputFailed = { [weak self] error in
            // Only `EPIPE`: the child exited (see inputFailed(_:)).
            guard let self else { return }
            logger.debug("ChildProcess(\(executable)) closed its input: \(error)")
            errors.send(error)
        }
        run.onExit = { [weak self] termination in
            self?.simulatedExited(termination)
        }
        simulated = run
        outputLines = LineBuffer(limit: maximumLineLength)
        errorLines = LineBuffer(limit: maximumLineLength)
        pid = run.pid
        phase = .running
        retainedWhileRunning = self
        run.begin()
    }

    /// `SIGTERM` now, `SIGKILL` after the grace period, on the context's
    /// clock.
    private func terminateSimulated(_ run: SimulatedProcess) {
        guard phase == .running, !run.isTerminating else { return }
        kill(.terminate)
        run.kill(after: terminationGracePeriod) { [weak self] in
            self?.gracePeriodEnded()
        }
    }

    /// The scripted run ended: its output was delivered before, so the
    /// pipes' last lines are flushed and ``didExit`` is sent.
    private func simulatedExited(_ termination: Termination) {
        simulated = nil
        if let last = outputLines.finish() { output.send(last) }
        if let last = errorLines.finish() { errorOutput.send(last) }
        exited(status: termination.status, signal: termination.signal ?? 0)
    }

    // MARK: Flow control

    /// Stops reading the child's output and error output until
    /// ``resumeReading()``: the child blocks once its pipes are full. What
    /// a relay to a full sink does:
    ///
    /// ```swift
    /// child.output.relay(to: connection, pausing: child)
    /// ```
    ///
    /// A scripted child of a test context holds what its script writes
    /// while paused (`run.isOutputPaused`), and delivers it on resume.
    public func pauseReading() {
        simulated?.pauseOutput()
        outputPipe?.stopReading()
        errorPipe?.stopReading()
    }

    /// Reads the child's output again after ``pauseReading()``.
    public func resumeReading() {
        simulated?.resumeOutput()
        do {
            try outputPipe?.startReading()
            try errorPipe?.startReading()
        } catch {
            report(error)
        }
    }

    // MARK: LoopResource

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [output, errorOutput, didExit, errors] }

    /// Terminates the running child (``terminate()``), as its component
    /// does when it disappears; ``start()`` runs it again after ``didExit``.
    public func stop() {
        terminate()
    }

    /// Logs `error` and sends it on ``errors``: the child could not start
    /// as its component appeared.
    public func didFailToStart(_ error: LoopError) {
        report(error)
    }
}
