import Foundation
import Synchronization
import Testing

/// An executable of the package running as a child process, with its
/// standard streams on pipes: the fixture app (`ComposeFixture`) on one
/// scenario, or another app such as the chat daemon.
///
/// ```swift
/// let app = try FixtureProcess("lifecycle")
/// try await app.waitFor("ready")
/// app.signal(SIGTERM)
/// #expect(await app.waitForExit() == 0)
///
/// let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "0"])
/// ```
///
/// Waiting is event-driven: a reader thread per pipe, blocked in `read(2)`,
/// hands each chunk to a ``FixtureOutput``, which resumes the task waiting
/// for a line; the timeouts only turn a hang into a failure.
final class FixtureProcess: Sendable {
    /// How long a wait may take before the test fails instead of hanging.
    static let failureTimeout: Duration = .seconds(20)

    /// What failure messages call the process: the scenario, or the
    /// executable's name.
    let name: String
    /// Standard output, line by line.
    let output = FixtureOutput()
    /// Standard error (the runtime's log), kept for failure messages.
    let errors = FixtureOutput()

    private let process: Process
    private let stdinHandle: FileHandle
    private let exit = ExitWatch()

    /// Starts the fixture on `scenario` (COMPOSE_FIXTURE) with extra
    /// environment variables, and with `blockedSignals` blocked in its
    /// signal mask (none by default, as a shell starts a program). Standard
    /// input is a pipe (see ``writeStdin(_:)``) unless `inputFile` names a
    /// file to redirect it from.
    convenience init(
        _ scenario: String,
        environment extra: [String: String] = [:],
        blockedSignals: [Int32] = [],
        inputFile: URL? = nil
    ) throws {
        try self.init(
            executable: "ComposeFixture",
            name: scenario,
            environment: ["COMPOSE_FIXTURE": scenario].merging(extra) { _, new in new },
            blockedSignals: blockedSignals,
            inputFile: inputFile
        )
    }

    /// Starts `executable`, a product of the package built next to the
    /// tests (or a system program, by its absolute path), with `arguments` and this process's environment plus `extra`.
    /// `name` (the executable's by default) labels failure messages; the
    /// other parameters are those of ``init(_:environment:blockedSignals:inputFile:)``.
    /// With `journalStream`, `JOURNAL_STREAM` names the pipe standard
    /// error goes to, as systemd sets it when that is the journal.
    /// `launcher` is a command that runs the executable (its path and the
    /// arguments come after it), such as `systemd-socket-activate -l ...`;
    /// `standardInput`, when given, is the child's standard input instead
    /// of a pipe (a listening socket a launcher moves to descriptor 3).
    init(
        executable: String,
        arguments: [String] = [],
        name: String? = nil,
        environment extra: [String: String] = [:],
        blockedSignals: [Int32] = [],
        inputFile: URL? = nil,
        journalStream: Bool = false,
        launcher: [String] = [],
        standardInput: FileHandle? = nil
    ) throws {
        Self.ignoreBrokenPipes
        self.name = name ?? executable
        var environment = ProcessInfo.processInfo.environment
        environment["COMPOSE_FIXTURE"] = nil
        environment.merge(extra) { _, new in new }

        // Pipes are close-on-exec on both ends: Foundation's Pipe is not,
        // and a child that another test in this process spawns with libuv
        // would inherit them and hold back this child's end of output (or of
        // input). Process dup2s the child's ends onto 0, 1 and 2, which
        // clears the flag there, and closes everything else in the child.
        let input = try Self.pipe()
        let out = try Self.pipe()
        let err = try Self.pipe()
        if journalStream {
            var info = stat()
            guard fstat(err.write.fileDescriptor, &info) == 0 else { throw FixtureFailure.pipe(errno) }
            environment["JOURNAL_STREAM"] = "\(info.st_dev):\(info.st_ino)"
        }

        // Through `env --default-signal`, so the child starts with every
        // signal at its default action, as from a shell. This test runner
        // ignores SIGPIPE, and an ignored signal survives exec: a child
        // started directly would be protected from SIGPIPE by the runner,
        // not by the runtime the tests are about.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["--default-signal"] + launcher + [try Self.executableURL(executable).path] + arguments
        process.environment = environment
        if let standardInput {
            process.standardInput = standardInput
        } else if let inputFile {
            process.standardInput = try FileHandle(forReadingFrom: inputFile)
        } else {
            process.standardInput = input.read
        }
        process.standardOutput = out.write
        process.standardError = err.write
        self.process = process
        stdinHandle = input.write

        Self.read(out.read, into: output)
        Self.read(err.read, into: errors)
        let exit = exit
        process.terminationHandler = { process in
            // A death by signal is reported as the negated signal number,
            // so it cannot pass for an exit status.
            let status = process.terminationReason == .uncaughtSignal
                ? -process.terminationStatus
                : process.terminationStatus
            exit.exited(with: status)
        }
        // The child inherits the signal mask of the thread that spawns it;
        // a dispatch worker (this task's thread) blocks most signals.
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blockedSignals { sigaddset(&mask, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &mask, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        try input.read.close()
        try out.write.close()
        try err.write.close()
    }

    /// A test that failed before the child exited must not leave it behind.
    deinit {
        if exit.status == nil { kill(process.processIdentifier, SIGKILL) }
    }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Whether the child has not exited yet.
    var isRunning: Bool {
        exit.status == nil
    }

    /// Standard output so far, for failure messages.
    var transcript: String {
        "stdout of \(name):\n\(output.text)\nstderr:\n\(errors.text)"
    }

    /// Waits until the fixture printed `line` (now or before). Records an
    /// issue and throws if output ended or the failure timeout passed first.
    func waitFor(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let found = await output.waitForLine(timeout: Self.failureTimeout) { $0 == line }
        if !found {
            Issue.record("\"\(line)\" never came.\n\(transcript)", sourceLocation: sourceLocation)
            throw FixtureFailure.lineNeverCame(line)
        }
    }

    /// Waits until the child printed a line starting with `prefix` (now or
    /// before) and returns it. Records an issue and throws if output ended
    /// or the failure timeout passed first.
    func waitForLine(startingWith prefix: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let found = await output.waitForLine(timeout: Self.failureTimeout) { $0.hasPrefix(prefix) }
        guard found, let line = output.lines.first(where: { $0.hasPrefix(prefix) }) else {
            Issue.record("No line starting with \"\(prefix)\" came.\n\(transcript)", sourceLocation: sourceLocation)
            throw FixtureFailure.lineNeverCame(prefix)
        }
        return line
    }

    /// Sends `signal` to the child.
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Writes `text` (UTF-8) to the child's standard input.
    func writeStdin(_ text: String) throws {
        try stdinHandle.write(contentsOf: Data(text.utf8))
    }

    /// Closes the child's standard input: end of input.
    func closeStdin() throws {
        try stdinHandle.close()
    }

    /// Waits for the child to exit and for the end of its output, and
    /// returns its exit status (a death by signal `n` is `-n`). Past the
    /// failure timeout it kills the child and records an issue (as for any
    /// death by `SIGKILL`, unless the test sent it: `killedOnPurpose`).
    func waitForExit(killedOnPurpose: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) async -> Int32 {
        let pid = process.processIdentifier
        // Not synchronisation: a watchdog on real time (the child is a
        // real process), cancelled as soon as the exit is seen.
        let watchdog = Task {
            try await Task.sleep(for: Self.failureTimeout)   // real time: a watchdog on a real process, cancelled at its exit
            kill(pid, SIGKILL)
        }
        let status = await exit.wait()
        watchdog.cancel()
        if status == -SIGKILL, !killedOnPurpose {
            Issue.record("\(name) did not exit in time and was killed.\n\(transcript)", sourceLocation: sourceLocation)
        }
        // The pipes' end of file may trail the exit by a moment: both of
        // them, or a test reads standard error before its last lines
        // arrive (seen: a parent's "exiting with status 0", a tool's error).
        await output.waitForEnd(timeout: Self.failureTimeout)
        await errors.waitForEnd(timeout: Self.failureTimeout)
        return status
    }

    // MARK: Setup

    enum FixtureFailure: Error {
        case lineNeverCame(String)
        case executableNotFound([String])
        case pipe(Int32)
    }

    /// Writing to a child that already exited must fail with EPIPE, not
    /// kill the test runner. (Children inherit the ignored disposition.)
    private static let ignoreBrokenPipes: Void = {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }()

    /// Feeds what `handle` delivers to `output` from a thread of its own,
    /// blocked in `read(2)` until data or end of file comes. (A
    /// `readabilityHandler` was tried first: on Linux it now and then never
    /// reports end of file.) The thread owns the handle and closes it at
    /// the end.
    private static func read(_ handle: FileHandle, into output: FixtureOutput) {
        let thread = Thread {
            let fd = handle.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    output.receive(Data(buffer[0..<count]))
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    output.receive(Data())
                    break
                }
            }
            try? handle.close()
        }
        thread.name = "FixtureProcess reader"
        thread.start()
    }

    /// A pipe whose two ends are close-on-exec from the start (`pipe2`,
    /// which Glibc's Swift module does not declare, looked up by name).
    private static func pipe() throws -> (read: FileHandle, write: FileHandle) {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { throw FixtureFailure.pipe(ENOSYS) }
        let pipe2 = unsafeBitCast(symbol, to: Pipe2.self)
        var fds: [Int32] = [-1, -1]
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw FixtureFailure.pipe(errno) }
        return (FileHandle(fileDescriptor: fds[0], closeOnDealloc: true),
                FileHandle(fileDescriptor: fds[1], closeOnDealloc: true))
    }

    /// The package's executables are built next to the test bundle; failing
    /// that, in the package's default build folder.
    static func executableURL(_ executable: String) throws -> URL {
        // A program of the system (`/usr/bin/openssl`), by its path.
        if executable.hasPrefix("/") { return URL(fileURLWithPath: executable) }
        var candidates: [URL] = []
        if let test = Bundle.main.executableURL {
            candidates.append(test.deletingLastPathComponent().appendingPathComponent(executable))
        }
        if let argument = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: argument).deletingLastPathComponent().appendingPathComponent(executable))
        }
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                candidates.append(folder.appendingPathComponent(".build/debug/\(executable)"))
                break
            }
            folder.deleteLastPathComponent()
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw FixtureFailure.executableNotFound(candidates.map(\.path))
    }
}

/// The exit status of a child, once known, and the tasks waiting for it.
private final class ExitWatch: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())

    var status: Int32? {
        state.withLock { $0.status }
    }

    func exited(with status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = state.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }
}
