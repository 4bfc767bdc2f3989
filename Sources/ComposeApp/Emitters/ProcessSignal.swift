import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// A process signal as an emitter: observe it with `+=`.
///
/// Stored in a component, it listens while the component is active:
///
/// ```swift
/// struct Daemon: Component {
///     let reload = ProcessSignal(.hangup)
///     var observers: Void {
///         reload += { rereadConfiguration() }
///     }
/// }
/// ```
///
/// `SIGINT` and `SIGTERM` also start the app's graceful shutdown (see
/// `StartupConfiguration`); observing them here adds to that, it does not
/// replace it. `SIGHUP` never shuts the app down, even while nothing
/// observes it: the runtime catches it for the app's whole life and reloads
/// the app's configuration (to act on the new values, observe
/// `Application.configurationDidReload`, which is sent after the reload). A
/// listening signal does not keep the loop running by itself.
@MainActor
public final class ProcessSignal: EmitterProtocol, LoopResource {
    /// A signal number with a name.
    public struct Name: Hashable, Sendable, CustomStringConvertible {
        /// The signal number, from the platform's headers.
        public let rawValue: Int32
        public let description: String

        /// The signal numbered `rawValue` on this platform, shown as `name`
        /// (`SIGHUP`): for a signal the named constants do not cover.
        public init(rawValue: Int32, name: String) {
            self.rawValue = rawValue
            self.description = name
        }

        /// `SIGHUP`: by convention, "reload your configuration".
        public static let hangup = Name(rawValue: SIGHUP, name: "SIGHUP")
        /// `SIGINT`: Ctrl-C.
        public static let interrupt = Name(rawValue: SIGINT, name: "SIGINT")
        /// `SIGQUIT`.
        public static let quit = Name(rawValue: SIGQUIT, name: "SIGQUIT")
        /// `SIGUSR1`.
        public static let user1 = Name(rawValue: SIGUSR1, name: "SIGUSR1")
        /// `SIGUSR2`.
        public static let user2 = Name(rawValue: SIGUSR2, name: "SIGUSR2")
        /// `SIGTERM`: the polite request to stop.
        public static let terminate = Name(rawValue: SIGTERM, name: "SIGTERM")
        /// `SIGCONT`: a stopped process goes on (a shell's `fg` or `bg`
        /// after Ctrl+Z). A terminal app that stopped itself at Ctrl+Z
        /// enters its terminal modes again and redraws then; in a test,
        /// `app.send(.continue)` continues it.
        public static let `continue` = Name(rawValue: SIGCONT, name: "SIGCONT")
        /// `SIGTSTP`: the request to stop (a shell's Ctrl+Z, when the
        /// terminal sends it; `kill -TSTP`). A terminal app in raw mode,
        /// whose Ctrl+Z arrives as a key, takes it as Ctrl+Z: it gives the
        /// terminal back, then stops its job; in a test,
        /// `app.send(.terminalStop)`.
        public static let terminalStop = Name(rawValue: SIGTSTP, name: "SIGTSTP")
        /// `SIGWINCH`: the terminal was resized.
        public static let windowChange = Name(rawValue: SIGWINCH, name: "SIGWINCH")
    }

    /// Sent each time the signal arrives.
    public let emitter = Emitter<Name>()
    /// The signal listened for.
    public let name: Name
    private var handle: SignalHandle?
    /// Whether it starts when its component appears.
    public let startsWithComponent: Bool

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter] }

    /// Listens for `name` while its component is active (or, outside a
    /// component, after ``start()``).
    public init(_ name: Name, startsWithComponent: Bool = true) {
        self.name = name
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        handle?.close()
        simulated?.cancel()
    }

    /// Whether the signal is being listened for.
    public var isListening: Bool { handle != nil || simulated != nil }

    /// In a test context: the subscription to its simulated signals.
    private var simulated: Subscription?

    /// Starts listening. Failures are logged.
    public func start() {
        guard !isListening else { return }
        let context = emitter.ownerContext ?? AppContext.current
        if let context, context.isSimulated {
            let emitter = emitter
            let name = name
            simulated = context.simulatedSignals += { number in
                if number == name.rawValue { emitter.send(name) }
            }
            return
        }
        do {
            let signal = try SignalHandle(loop: EventLoop.resolve(context, for: "ProcessSignal(\(name)).start"))
            let emitter = emitter
            let name = name
            try signal.start(name.rawValue) { _ in emitter.send(name) }
            signal.keepsLoopAlive = false
            handle = signal
        } catch {
            logger.error("ProcessSignal(\(name)) could not listen: \(error)")
        }
    }

    /// Stops listening and closes the handle.
    public func stop() {
        handle?.close()
        handle = nil
        simulated?.cancel()
        simulated = nil
    }
}
