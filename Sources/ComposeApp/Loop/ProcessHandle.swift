internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A `uv_process_t`: one child started with `uv_spawn`.
///
/// `uv_spawn` initialises the handle even when it fails (the handle is then
/// in the loop's list and must be closed with `uv_close`), so a failed spawn
/// closes the handle the ordinary way and throws.
///
/// Every child is spawned with `UV_PROCESS_DETACHED`: libuv calls
/// `setsid()` in the child, which makes it the leader of a new session and
/// of a new process group whose ID is its PID. Signals go to that group
/// (`kill(-pid, sig)`), so whatever the child started in the background is
/// stopped with it. Detaching does not change what the loop knows: the
/// handle is still active and referenced (nothing calls `uv_unref`), so it
/// keeps the loop alive and its exit callback runs as for any child. The
/// new session has no controlling terminal: a Ctrl-C typed at the app's
/// terminal reaches the app only, which stops its children itself. The
/// group is registered in the loop's ``EventLoop/processGroups`` at spawn.
///
/// The handle is never closed while the child runs: libuv stops watching a
/// closed process handle and the child would stay a zombie. ``close()``
/// before the exit callback kills the child's group with `SIGKILL` (it is
/// the forced path, used when the owner is gone or the loop is torn down)
/// and closes the handle from the exit callback; owners that want a polite
/// termination signal the group and close after ``onExit``.
@MainActor
final class ProcessHandle: LoopHandle {
    /// The child's exit status and terminating signal (0 if none).
    private var onExit: (@MainActor (Int64, Int32) -> Void)?
    /// Whether the child is gone (it exited, or it never started).
    private(set) var hasExited = false
    /// Whether ``close()`` was called before the exit callback.
    private var closesOnExit = false
    /// The child's process ID.
    private(set) var pid: Int32 = 0

    /// What the child's standard input, output or error is connected to.
    enum Stdio {
        /// `/dev/null`.
        case ignore
        /// A pipe the child reads (its standard input).
        case inputPipe(StreamHandle)
        /// A pipe the child writes (its standard output or error).
        case outputPipe(StreamHandle)
        /// This process's descriptor, shared with the child (its standard
        /// output, say, or a listening socket).
        case inherit(Int32)
    }

    /// Spawns `file` with `arguments` (not including `argv[0]`, which is
    /// `file`).
    ///
    /// - Parameters:
    ///   - environment: `KEY=value` entries, or `nil` to inherit this
    ///     process's environment.
    ///   - workingDirectory: Where the child starts, or `nil` for ours.
    ///   - user: The user ID the child runs as (`setuid` in the child), or
    ///     `nil` for ours.
    ///   - group: The group ID the child runs as (`setgid`), or `nil`.
    ///   - stdio: Standard input, output and error, in that order, then
    ///     the descriptors 3, 4, ... of the child.
    ///   - executable: What errors name (the program a wrapper `file`
    ///     runs); `file` when `nil`.
    ///   - argumentZero: The child's `argv[0]`; `file` when `nil`.
    ///   - onExit: Called once, on the main actor, when the child exits.
    /// - Throws: `uv_spawn`'s error (`ENOENT` for a missing executable or
    ///   working directory, `EACCES`, `EPERM` when the user or group
    ///   cannot be taken, ...), naming the executable.
    init(
        loop: EventLoop,
        file: String,
        arguments: [String],
        environment: [String]?,
        workingDirectory: String?,
        user: UInt32? = nil,
        group: UInt32? = nil,
        stdio: [Stdio],
        describing executable: String? = nil,
        argumentZero: String? = nil,
        onExit: @escaping @MainActor (Int64, Int32) -> Void
    ) throws(LoopError) {
        var spawnResult: Int32 = 0
        try super.init(loop: loop, size: MemoryLayout<uv_process_t>.size, operation: "uv_spawn") { raw in
            spawnResult = Self.spawn(
                loop: loop, process: raw.assumingMemoryBound(to: uv_process_t.self),
                file: file, argumentZero: argumentZero ?? file, arguments: arguments, environment: environment,
                workingDirectory: workingDirectory, user: user, group: group, stdio: stdio
            )
            // Always 0: the handle is initialised either way and is closed
            // through `close()` below when the spawn failed.
            return 0
        }
        if spawnResult < 0 {
            hasExited = true
            close()
            var context = executable ?? file
            if let workingDirectory { context += " in \(workingDirectory)" }
            if let user { context += " as user \(user)" }
            if let group { context += " as group \(group)" }
            throw LoopError("uv_spawn", code: spawnResult, context: context)
        }
        self.onExit = onExit
        pid = process.pointee.pid
        loop.processGroups.insert(pid)
        loop.counters.pointee.processesSpawned &+= 1
    }

    private var process: UnsafeMutablePointer<uv_process_t> {
        raw.assumingMemoryBound(to: uv_process_t.self)
    }

    /// Sends `signal` to the child's process group (the child and what it
    /// started that is still in its group). Throws `ESRCH` if the child is
    /// already gone.
    func kill(_ signal: Int32) throws(LoopError) {
        assertOnLoopThread()
        guard !hasExited, !isClosing else {
            throw LoopError("kill", code: UV_ESRCH.rawValue, context: "process group \(pid)")
        }
        try LoopError.check(loop.processGroups.signal(pid, signal), "kill", context: "process group \(pid)")
    }

    override func releaseCallbacks() {
        onExit = nil
    }

    /// Closes the handle, or, while the child runs, kills its group with
    /// `SIGKILL` and closes the handle once its exit callback has run.
    /// Idempotent.
    override func close() {
        assertOnLoopThread()
        if hasExited {
            super.close()
            return
        }
        guard !closesOnExit else { return }
        closesOnExit = true
        onExit = nil
        loop.processGroups.signal(pid, SIGKILL)
    }

    fileprivate func exited(status: Int64, signal: Int32) {
        hasExited = true
        loop.counters.pointee.processesExited &+= 1
        // The leader is reaped: the group stays registered only while
        // another member lives.
        _ = loop.processGroups.isAlive(pid)
        if closesOnExit {
            super.close()
            return
        }
        let callback = onExit
        onExit = nil
        callback?(status, signal)
    }

    /// Builds the C options (strings copied for the duration of the call:
    /// `uv_spawn` forks and execs before it returns) and calls `uv_spawn`.
    private static func spawn(
        loop: EventLoop,
        process: UnsafeMutablePointer<uv_process_t>,
        file: String,
        argumentZero: String,
        arguments: [String],
        environment: [String]?,
        workingDirectory: String?,
        user: UInt32?,
        group: UInt32?,
        stdio: [Stdio]
    ) -> Int32 {
        let argv = CStringArray([argumentZero] + arguments)
        let envp = environment.map(CStringArray.init)
        defer {
            argv.free()
            envp?.free()
        }
        var containers = stdio.map { entry -> uv_stdio_container_t in
            var container = uv_stdio_container_t()
            switch entry {
            case .ignore:
                container.flags = UV_IGNORE
            case .inputPipe(let pipe):
                container.flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_READABLE_PIPE.rawValue)
                container.data.stream = pipe.stream
            case .outputPipe(let pipe):
                container.flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_WRITABLE_PIPE.rawValue)
                container.data.stream = pipe.stream
            case .inherit(let fd):
                container.flags = UV_INHERIT_FD
                container.data.fd = fd
            }
            return container
        }
        // libuv learns of exits through SIGCHLD. A process started by a
        // parent that had it blocked (a dispatch worker thread, for one)
        // inherits the block, and the exit callback would never come:
        // unblock it on the loop thread. Children start with an empty mask
        // (libuv resets it between fork and exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGCHLD)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        return file.withCString { file in
            withOptionalCString(workingDirectory) { cwd in
                containers.withUnsafeMutableBufferPointer { containers in
                    var options = uv_process_options_t()
                    options.exit_cb = processHandleExitedCallback
                    options.file = file
                    options.args = argv.pointer
                    options.env = envp?.pointer
                    options.cwd = cwd
                    options.stdio_count = Int32(containers.count)
                    options.stdio = containers.baseAddress
                    // setsid() in the child: a session and process group of
                    // its own (see the type's documentation).
                    var flags = UV_PROCESS_DETACHED.rawValue
                    if let user {
                        flags |= UV_PROCESS_SETUID.rawValue
                        options.uid = uv_uid_t(user)
                    }
                    if let group {
                        flags |= UV_PROCESS_SETGID.rawValue
                        options.gid = uv_gid_t(group)
                    }
                    options.flags = UInt32(flags)
                    return uv_spawn(loop.uv, process, &options)
                }
            }
        }
    }
}

private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// A NULL-terminated `char *[]` of `strdup`ed strings, freed with ``free()``.
private struct CStringArray {
    let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointer = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() {
            pointer[index] = strdup(string)
        }
        pointer[strings.count] = nil
    }

    func free() {
        for index in 0..<count { Glibc.free(pointer[index]) }
        pointer.deallocate()
    }
}

/// ``processHandleExited`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var processHandleExitedCallback: uv_exit_cb { { processHandleExited($0, $1, $2) } }

@MainActor private func processHandleExited(_ process: UnsafeMutablePointer<uv_process_t>?, _ status: Int64, _ signal: Int32) {
    LoopHandle.dispatch(compose_uv_handle(process), as: ProcessHandle.self, (status, signal)) { owner, exit in
        owner.exited(status: exit.0, signal: exit.1)
    }
}
