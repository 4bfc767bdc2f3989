internal import ComposeApp

/// The outside world of a `TestApp`, as the test scripts it: standard
/// input, file-watch events, child processes, servers the app connects to,
/// and ports taken by someone else. Nothing real is read, watched, spawned
/// or connected to.
///
/// What the app must meet at startup is scripted in the `setUp` closure,
/// which runs after the test context exists and before the root binds:
///
/// ```swift
/// let app = TestApp(ChatApp.self) { app in
///     app.occupy(port: 7070)            // the app's TCPServer gets addressInUse
///     app.scriptProcess("git") { run in run.exit(status: 0) }
///     app.standardInput.write("status\n")
/// }
/// ```
extension TestApp {
    /// The app's standard input: what the test writes, the app's
    /// `StandardInput` reads.
    public var standardInput: TestStandardInput {
        TestStandardInput(app: self, input: world.standardInput)
    }

    /// The app's standard output: what it wrote with
    /// `Application.print(_:)`, which a test context keeps instead of
    /// printing.
    public var standardOutput: TestStandardOutput {
        TestStandardOutput(output: world.standardOutput)
    }

    /// The file system as the app's `FileWatcher`s see it: the test says
    /// what changed, and which paths do not exist.
    public var files: TestFileSystem {
        TestFileSystem(app: self, files: world.files)
    }

    /// Scripts the executable `executable`: the app's `ChildProcess` of it
    /// starts a scripted run instead of a process (``ScriptedProcess``).
    /// Scripting an executable again replaces its script.
    ///
    /// ```swift
    /// app.scriptProcess("echo") { run in
    ///     run.writeOutput(run.arguments.joined(separator: " ") + "\n")
    ///     run.exit(status: 0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - executable: A name (`git`: it also answers for any path ending
    ///     in `/git`) or a path (`/usr/bin/git`: that path only).
    ///   - signals: How each run handles a signal other than `SIGKILL`:
    ///     by default as a process does by default (`SIGTERM`, `SIGINT`,
    ///     `SIGHUP`, ... end the run with that signal).
    ///   - onStart: Runs at each start, with the new run, so that the
    ///     script can answer by itself.
    /// - Returns: The script, which records its runs.
    @discardableResult
    public func scriptProcess(
        _ executable: String,
        signals: ScriptedProcess.SignalHandling = .default,
        onStart: (@MainActor (ScriptedProcess.Run) -> Void)? = nil
    ) -> ScriptedProcess {
        let script = ScriptedProcess(executable: executable, app: self, signals: signals, onStart: onStart)
        // The world keeps the script (the script keeps the app weakly).
        world.processes.script(executable) { process in script.started(process) }
        return script
    }

    /// A server the app can connect to (`TCPConnection.connect`) on `port`,
    /// whatever the host; 0 picks a free port (``TestServer/port``). The
    /// port is taken: the app's own `TCPServer` on it fails with
    /// `addressInUse`.
    ///
    /// ```swift
    /// let redis = app.listen(port: 6379)
    /// // ... the app connects and sends PING
    /// let connection = try #require(redis.peers.last)
    /// #expect(connection.readLines() == ["PING"])
    /// connection.write("+PONG\r\n")
    /// ```
    ///
    /// - Parameters:
    ///   - port: The port the app connects to; 0 picks a free one (read it
    ///     from the returned server).
    ///   - onAccept: Runs with the test's end of each connection
    ///     the server accepts, before the app's connect completes (a greeting
    ///     written there is the first thing the app reads).
    public func listen(port: UInt16 = 0, onAccept: (@MainActor (TestPeer) -> Void)? = nil) -> TestServer {
        TestServer(app: self, network: world.network, port: port, tls: nil, onAccept: onAccept)
    }

    /// Scripts a TLS server on `port` for the app's
    /// `TCPConnection.connect(host:port:tls:)`: the handshake is
    /// simulated (see ``TestTLS``), and the app's connect completes with
    /// the connection (its `tlsSession` naming this server's certificate
    /// and the ALPN protocol chosen), or fails with the error a real
    /// handshake gives: `tlsVerificationFailed` for a certificate whose
    /// authority the app does not trust, that expired, that does not hold
    /// the host's name or whose key matches none of the app's pins;
    /// `tlsHandshakeFailed` when no ALPN protocol is shared; `timedOut`
    /// after the app's `handshakeTimeout` for a ``TestTLS/silent`` server.
    /// A plain server (``listen(port:onAccept:)``) is one that speaks no
    /// TLS: the app's handshake fails on its first bytes, or times out.
    ///
    /// ```swift
    /// let api = app.listen(port: 443, tls: .server(certificate: .expired))
    /// // ... the app's connect fails with tlsVerificationFailed:
    /// // "... /CN=localhost, was rejected: certificate has expired"
    /// let good = app.listen(port: 8443, tls: .server(applicationProtocols: ["h2"]))
    /// // ... the app connects; good.peers.last?.tlsServerName == "localhost"
    /// ```
    ///
    /// - Parameters:
    ///   - port: The port the app connects to; 0 picks a free one.
    ///   - tls: What the server presents and speaks.
    ///   - onAccept: Runs with the test's end of each connection
    ///     the server accepts, before the app's connect completes.
    public func listen(port: UInt16 = 0, tls: TestTLS, onAccept: (@MainActor (TestPeer) -> Void)? = nil) -> TestServer {
        TestServer(app: self, network: world.network, port: port, tls: tls, onAccept: onAccept)
    }

    /// Takes `port` as another process would: the app's `TCPServer` on it
    /// fails with `addressInUse` (on its `errors`, or thrown by
    /// `listen()`), naming the address.
    ///
    /// ```swift
    /// let app = TestApp(root: Server()) { app in app.occupy(port: 7070) }
    /// ```
    public func occupy(port: UInt16) {
        world.network.occupy(port: port)
    }

    /// Gives back a port ``occupy(port:)`` took.
    public func release(port: UInt16) {
        world.network.release(port: port)
    }

    // MARK: Internals

    /// A test context always has its simulated world.
    var world: SimulatedWorld { context.simulation! }

    /// Runs `body` as the app's code, then, unless it is already running
    /// as the app's code (a script's handler), everything it made due: what
    /// a test does directly is answered by the time the call returns, and
    /// what a script does inside the app's call is delivered after it.
    ///
    /// - Parameter call: The caller's name, for the message of a
    ///   re-entrant call (see ``drive(_:_:)``).
    func perform(_ call: @autoclosure () -> String, _ body: () -> Void) {
        if AppContext.current === context {
            body()
        } else {
            runAsApp(call(), body)
        }
    }
}
