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
/// ``user`` and ``group``, ``limits``, ``umask`` and
/// ``parentDeathSignal`` (see "Confinement"). A missing executable or working
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
/// skipped. At most the loop's line budget (1,024 lines) is sent per pipe
/// and loop turn: past it the pipe is not read until the next turn, where
/// the rest of what was read is sent first, so a child that floods short
/// lines cannot hold the app (the child blocks once its pipe is full).
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
/// **Confinement.** ``limits`` (open files, address space, CPU time),
/// ``umask`` and ``parentDeathSignal`` are applied by the child to itself
/// before it runs the executable. libuv runs no code of ours between `fork`
/// and `exec`, so when one of them is set the child starts as a wrapper
/// that applies them and then `exec`s the executable: `/bin/sh -c` with
/// `ulimit -n`, `-v`, `-t` and `umask`, started by util-linux's
/// `setpriv --pdeathsig` (2.33 or later) when ``parentDeathSignal`` is set.
/// The wrapper becomes the executable: ``pid``, the exit status, signals
/// and the process group are the executable's. Values reach the wrapper as
/// arguments, never as script text. With none of them set there is no
/// wrapper. What the wrapper changes:
/// - ``start()`` looks the executable up itself (in the child's `PATH`, as
///   `execvp` does) and throws `ENOENT` for a missing one, as `uv_spawn`
///   does; the child's `argv[0]` is then the path found, not the bare name.
/// - A limit above the app's own hard limit makes ``start()`` throw
///   ``LoopError/Code/operationNotPermitted`` (raising a hard limit needs
///   privileges); a value out of range ``LoopError/Code/invalidArgument``.
/// - A missing `/bin/sh` or `setpriv` makes ``start()`` throw
///   ``LoopError/Code/missingHelper``, naming it and the package to install.
/// - If the wrapper still cannot apply an option (privileges lost with
///   ``user``, a limit the kernel refuses), its shell says why on
///   ``errorOutput`` and the child exits with status 126 without running
///   the executable; an executable removed after ``start()`` looked it up
///   gives the shell's status 127.
///
/// **When the app itself dies.** An app killed by `SIGKILL` (or crashing)
/// runs none of the above. With ``parentDeathSignal`` (`.kill` typically)
/// Linux sends the child that signal when the app dies
/// (`prctl(PR_SET_PDEATHSIG)`). What remains:
/// - Linux sends it when the *thread* that spawned the child ends, not the
///   process: the runtime spawns on the app's main thread, which lives as
///   long as the app. A loop run on another thread that ends before the
///   app (a test's) signals its children then.
/// - It reaches the child only: the setting is cleared in the child's own
///   children (`fork`), so what a shell started in the background lives on
///   after a `SIGKILL` of the app (the group kill above needs a living
///   app). A descendant that moves to a session of its own (`setsid`)
///   escapes every group kill as well.
/// - Linux clears it when the child runs a set-user-ID, set-group-ID or
///   file-capability program, or changes its effective user or group.
/// - The app dying while the child starts is covered: after setting it the
///   wrapper checks that its parent is still the app, and signals itself
///   otherwise.
/// For a whole tree, run a daemon under systemd with the default
/// `KillMode=control-group`, which kills every process of the service's
/// cgroup when the service stops or dies.
///
/// **Lifetime.** A started process keeps itself (and the loop) alive until
/// ``didExit`` has been sent: dropping the last reference to a running
/// `ChildProcess` does not kill the child; call ``terminate()`` or
/// ``close()``.
///
/// **Supervision.** Made with `fatal: true` (and usually
/// `startsWithComponent: true`), the process is a worker program its
/// component's `Supervisor` restarts: failing to start, or a run that ends
/// unsuccessfully without the app asking it to stop, fails the component
/// (see ``UnexpectedExit``).
///
/// **In a test context** (`TestApp`) nothing is spawned: ``start()`` runs the
/// script the test gave for the executable (`app.scriptProcess("rsync")`),
/// which writes the output, reads the input, receives the signals and
/// exits; an executable nobody scripted fails as a missing one does
/// (`ENOENT`). Everything above holds, on virtual time, except
/// "Confinement": the options are validated but not applied (nothing is
/// spawned), and the script sees the executable and arguments as given.
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
    /// go on. Also sent when the input closes while full (the child
    /// exited, or the input failed): nothing waits for it any more, and
    /// writes say ``WriteResult/closed``.
    public let didBecomeWritable = SignalEmitter()
    /// Bytes written to the child's input that it has not read yet (beyond
    /// what the pipe holds).
    public internal(set) var queuedInputBytes = 0
    /// The input queue size at which ``write(_:)-([UInt8])`` says
    /// ``WriteResult/full``. 1 MiB by default.
    public var inputHighWaterMark = 1 << 20
    /// Once full, the input queue size at which ``didBecomeWritable`` is sent.
    /// 256 KiB by default.
    public var inputLowWaterMark = 256 << 10
    /// Whether the input queue reached ``inputHighWaterMark`` and has not
    /// drained yet.
    public internal(set) var isInputFull = false
    /// ``isInputFull``, as a ``WritableStream``.
    public var isFull: Bool { isInputFull }

    /// The executable: a path, or a name looked up in `PATH`.
    public let executable: String
    /// The arguments after `argv[0]` (which is ``executable``).
    public let arguments: [String]
    /// The child's environment: inherited (the default), inherited with
    /// additions, or clean (see ``Environment``).
    public let environment: Environment
    /// The user ID the child runs as, or `nil` for this process's (see
    /// `init(_:arguments:environment:workingDirectory:user:group:limits:umask:parentDeathSignal:acceptsInput:startsWithComponent:)`).
    public let user: UInt32?
    /// The group ID the child runs as, or `nil` for this process's.
    public let group: UInt32?
    /// The resource limits the child runs under (none unless given; see
    /// ``ResourceLimits`` and "Confinement").
    public let limits: ResourceLimits
    /// The child's file mode creation mask (`0o027`: no write for the
    /// group, nothing for others), or `nil` for this process's.
    public let umask: UInt16?
    /// The signal Linux sends the child when the app dies (`.kill`
    /// typically), or `nil` (the default) for none: the child then
    /// outlives an app killed by `SIGKILL`. See "When the app itself dies".
    public let parentDeathSignal: ProcessSignal.Name?
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
            outputLines?.splitter.limit = maximumLineLength.bytes
            errorLines?.splitter.limit = maximumLineLength.bytes
        }
    }

    /// The process ID of the child last started (kept after it exits), or
    /// `nil` before the first ``start()``.
    public internal(set) var pid: Int32?
    /// How the last run ended, once ``didExit`` was sent.
    public internal(set) var termination: Termination?
    /// Whether the child is running (started, and libuv has not reported
    /// its exit yet).
    public var isRunning: Bool { phase == .running }

    /// Whether the child starts when its component appears (failures are
    /// then logged and sent on ``errors``).
    public let startsWithComponent: Bool
    /// Whether the child failing is a failure of its component (see
    /// "Supervision" in ``ChildProcess/UnexpectedExit``): the supervisor
    /// above restarts the component, so a fresh process starts.
    public let isFatal: Bool
    /// Set when the app asked the child to stop (``terminate()``,
    /// ``stop()``, ``close()``) during this run: its exit is then no failure.
    var stopRequested = false
    var phase = Phase.idle
    var isClosed = false
    var process: ProcessHandle?
    /// The loop of the current or last run.
    var loop: EventLoop?
    var outputPipe: StreamHandle?
    var errorPipe: StreamHandle?
    var inputPipe: StreamHandle?
    /// The lines of the current or last run's pipes (see
    /// ``startLines(on:)``).
    var outputLines: LineDelivery?
    var errorLines: LineDelivery?
    /// The frames of ComposeFraming's `frames(using:)`, once asked for:
    /// standard output goes to them instead of ``output``
    /// (ChildProcess+Frames.swift).
    var outputFrames: FrameDelivery?
    /// Whether the owner paused reading (``pauseReading()``).
    var isReadingPaused = false
    /// Pipes that ended with lines still to send (see `ended(_:)`).
    var unfinishedLines = 0
    var pendingTermination: Termination?
    var killTimer: TimerHandle?
    var drainTimer: TimerHandle?
    /// The process groups of earlier or current runs whose leader exited
    /// while other members may live on: still signalled by ``terminate()``,
    /// ``kill(_:)`` and ``close()`` (see "Process group").
    var lingeringGroups: Set<Int32> = []
    /// In a test context: the scripted run under way.
    var simulated: SimulatedProcess?
    /// Holds this object while a run is under way (see "Lifetime").
    var retainedWhileRunning: ChildProcess?

    /// Describes a child process; ``start()`` runs it.
    ///
    /// ```swift
    /// let worker = ChildProcess(
    ///     "/usr/local/bin/worker",
    ///     limits: .init(openFiles: 256, addressSpace: 1 << 30, cpuSeconds: 600),
    ///     umask: 0o027,
    ///     parentDeathSignal: .kill
    /// )
    /// ```
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
    ///   - limits: Resource limits (soft and hard) the child runs under;
    ///     none by default (see ``ResourceLimits``).
    ///   - umask: The child's file mode creation mask (at most `0o777`), or
    ///     `nil` (the default) for this process's.
    ///   - parentDeathSignal: The signal the child gets when the app dies,
    ///     even by `SIGKILL` (`PR_SET_PDEATHSIG`; needs util-linux's
    ///     `setpriv`), or `nil` (the default) for none.
    ///   - acceptsInput: `true` to write to the child's standard input.
    ///   - startsWithComponent: `true` to start the child when its
    ///     component appears (failures are then logged and sent on
    ///     ``errors``).
    ///   - fatal: `true` to make the child's failure a failure of its
    ///     component (see ``isFatal``): with `startsWithComponent`, a
    ///     worker program its `Supervisor` restarts.
    public init(
        _ executable: String,
        arguments: [String] = [],
        environment: Environment = .inherit,
        workingDirectory: String? = nil,
        user: UInt32? = nil,
        group: UInt32? = nil,
        limits: ResourceLimits = .none,
        umask: UInt16? = nil,
        parentDeathSignal: ProcessSignal.Name? = nil,
        acceptsInput: Bool = false,
        startsWithComponent: Bool = false,
        fatal: Bool = false
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.user = user
        self.group = group
        self.limits = limits
        self.umask = umask
        self.parentDeathSignal = parentDeathSignal
        self.acceptsInput = acceptsInput
        self.startsWithComponent = startsWithComponent
        self.isFatal = fatal
    }

    isolated deinit {
        // Reached only when no run is under way (a run retains `self`).
        outputFrames?.close()
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

    /// Spawns the child (through the wrapper of "Confinement" when an
    /// option needs it). Does nothing (and logs) while a run is under way
    /// or after ``close()``.
    ///
    /// - Throws: `uv_spawn`'s ``LoopError``, e.g. `ENOENT` naming the
    ///   executable when it (or the working directory) does not exist,
    ///   ``LoopError/Code/operationNotPermitted`` (`EPERM`) when the child
    ///   cannot take ``user`` or ``group``, or a limit is above the app's
    ///   hard limit; ``LoopError/Code/invalidArgument`` for a limit, umask
    ///   or signal out of range; ``LoopError/Code/missingHelper`` when the
    ///   wrapper's `/bin/sh` or `setpriv` is not installed.
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
        stopRequested = false
        try validateConfinement()
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
            let environment = environment.resolved()
            let launch = try launch(environment: environment)
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
                file: launch.file,
                arguments: launch.arguments,
                environment: environment.map { $0.map { "\($0.key)=\($0.value)" }.sorted() },
                workingDirectory: workingDirectory,
                user: user,
                group: group,
                stdio: [inputPipe.map { .inputPipe($0) } ?? .ignore, .outputPipe(outputPipe), .outputPipe(errorPipe)],
                describing: executable,
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
        startLines(on: (outputPipe, errorPipe))
        pid = process.pid
        phase = .running
        retainedWhileRunning = self
        queuedInputBytes = 0
        isInputFull = false
        inputPipe?.onWriteCompleted = { [weak self] count, error in self?.inputWritten(count, error) }
        read(outputPipe, as: .output)
        read(errorPipe, as: .error)
    }

    /// The loop of the current run (timers of a termination or a drain).
    func runLoop() throws(LoopError) -> EventLoop {
        if let loop { return loop }
        return try EventLoop.resolve(output.ownerContext, for: "ChildProcess(\(executable)) timer")
    }

    func report(_ error: LoopError) {
        logger.error("ChildProcess(\(executable)): \(error)")
        errors.send(error)
    }
}
