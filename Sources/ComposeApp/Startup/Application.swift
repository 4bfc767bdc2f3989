import Compose
#if canImport(Glibc)
import Glibc
#endif
public import Logging

/// The running app, from its own code: shut it down, reach its tree,
/// follow deep links.
///
/// Each call acts on the app whose code is running
/// (`AppContext.current`): the one `StartupComponent.main()` runs, or,
/// in a test, the `TestApp` that drives it, even with several alive in
/// one process. Called outside any app, a call does nothing and logs a
/// diagnostic (a test collects it with `Diagnostics.collectUnattached(_:)`).
@MainActor
public enum Application {
    /// The context of the running app, if code of one is running.
    public static var context: AppContext? { AppContext.current }

    /// The running app's logger: what the runtime logs with, so a line
    /// carries the app's metadata (`app=notes`, and `worker=1` in the
    /// workers mode) and goes where the runtime's go (standard error, the
    /// journal under systemd, `TestApp.logs` in a test). Outside an app,
    /// `Diagnostics.logger`.
    ///
    /// ```swift
    /// listener.didAppear += {
    ///     Application.logger.info("Listening on 127.0.0.1:\(listener.port)")
    /// }
    /// ```
    ///
    /// A component's own `ComponentNode/logger` adds its path
    /// (`component=notes.server`).
    public static var logger: Logger {
        context?.logger ?? Diagnostics.logger
    }

    /// Writes `line` and a newline to the app's standard output: file
    /// descriptor 1 in a live app (one `write(2)`, unbuffered), and
    /// `TestApp.standardOutput` in a test, where the test can assert it
    /// and nothing reaches the terminal. Outside any app, standard output.
    ///
    /// ```swift
    /// shown += { line in Application.print(line) }
    /// // in a test: #expect(app.standardOutput.lines.last == "count: 2")
    /// ```
    ///
    /// For what the app tells its user; lifecycle messages and errors go
    /// to ``logger``.
    ///
    /// When standard output's reader has gone (`app | head -1`: `head`
    /// exited), what is printed from then on is dropped and the app goes
    /// on: a daemon's output is not its reason to live. (The plain-line
    /// output of a terminal app, ComposeTerminal's, is: it shuts the app
    /// down then.)
    public static func print(_ line: String) {
        if let context {
            context.printLine(line)
        } else {
            Runtime.writeAll(line + "\n", to: 1)
        }
    }

    /// Starts a graceful shutdown that ends with exit status `status`.
    ///
    /// Safe from anywhere in the app's code, at any time: a request made
    /// before the loop runs (in `willBindRootComponent`,
    /// `didBindRootComponent` or a `didAppear` observer) is honoured as soon
    /// as the root is active. Requests after the first are ignored.
    public static func shutdown(status: Int32 = 0) {
        guard let context = running("Application.shutdown(status:)") else { return }
        context.shutdown.request(status: status, reason: "requested by the app")
    }

    /// Whether a shutdown has been requested or has begun.
    public static var isShuttingDown: Bool {
        context?.shutdown.isRequested ?? false
    }

    /// The app's component tree, once bound.
    public static var tree: ComponentTree? {
        context?.tree
    }

    /// The route string of the focused chain (see
    /// `ComponentTree.currentRoute`), or `""` before binding.
    public static var currentRoute: String {
        tree?.currentRoute ?? ""
    }

    /// Opens a deep link (see `ComponentTree.open(_:mode:)`).
    public static func open(_ route: String, mode: RouteOpeningMode = .replace) throws(RouteError) {
        guard let tree else {
            throw RouteError(code: .notBound, segment: route, choices: [], message: "Cannot open \"\(route)\": the app's tree is not bound yet. Open routes from didBindRootComponent() or later.")
        }
        try tree.open(route, mode: mode)
    }

    /// The running app's clock, for async code: `try await
    /// Application.clock.sleep(for: .seconds(5))` sleeps on the app's time
    /// (virtual time in a `TestApp`) and ends with `CancellationError` when
    /// the app shuts down. Outside an app, a clock on real time.
    public nonisolated static var clock: AppClock {
        AppContext.current?.clock ?? AppClock()
    }

    /// Sent once when a graceful shutdown begins, before the tree is
    /// deactivated.
    public static var willShutDown: SignalEmitter {
        guard let context = running("Application.willShutDown") else { return SignalEmitter() }
        return context.shutdown.willShutDown
    }

    private static func running(_ call: String) -> AppContext? {
        if let context { return context }
        Diagnostics.report(Diagnostic(.noRunningApp, "\(call) was used outside a running app: it does nothing. Use it from an app's code (observers, lifecycle methods, tasks they start), or from a test through TestApp."))
        return nil
    }
}

extension AppContext {
    /// Writes `line` and a newline to this app's standard output, as
    /// ``Application/print(_:)`` does, and tells whether its reader is
    /// still there: `false` when the write failed with `EPIPE` (a pipe
    /// whose reader closed, `app | head -1`; the runtime ignores SIGPIPE)
    /// or a test closed the simulated reader
    /// (`TestApp.standardOutput.closeReader()`). The line is dropped then.
    /// Other failures (a full disk) drop the line and return `true`.
    @discardableResult
    package func printLine(_ line: String) -> Bool {
        if let output = simulatedStandardOutput {
            return output.write(line + "\n")
        }
        return Runtime.writeAll(line + "\n", to: 1) != EPIPE
    }
}
