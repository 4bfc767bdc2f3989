import Compose
#if canImport(Glibc)
import Glibc
#endif

/// The terminal of a test context: a size the test chooses, the bytes the
/// app writes kept in order, bytes the test types, resizes the test makes,
/// and whether the app's modes are on (``isEntered``), so a test sees that
/// the terminal was given back. Deliveries go through the context's clock.
@MainActor
package final class SimulatedTerminal {
    /// One reader of the app (a ``TerminalConnection``).
    @MainActor
    final class Connection {
        fileprivate weak var terminal: SimulatedTerminal?
        fileprivate var onInput: (@MainActor (UnsafeRawBufferPointer) -> Void)?
        fileprivate var onResize: (@MainActor (Int, Int) -> Void)?
        fileprivate var onEnd: (@MainActor () -> Void)?

        fileprivate init(terminal: SimulatedTerminal) {
            self.terminal = terminal
        }

        /// Stops the deliveries. Idempotent.
        func close() {
            onInput = nil
            onResize = nil
            onEnd = nil
            terminal?.detach(self)
            terminal = nil
        }
    }

    private weak var context: AppContext?
    private var connections: [Connection] = []
    private var pendingInput: [[UInt8]] = []
    private var deliveryScheduled = false

    /// Whether the app sees a terminal (`false`: as a pipe or `TERM=dumb`).
    package var isTerminal = true
    /// The environment the app reads its terminal's colours from (`TERM`,
    /// `COLORTERM`, `NO_COLOR`): a 24-bit colour terminal at first.
    package var environment: [String: String] = ["TERM": "xterm-256color", "COLORTERM": "truecolor"]
    /// The columns.
    package private(set) var columns: Int
    /// The rows.
    package private(set) var rows: Int
    /// Every byte the app wrote, in order (the undoing sequence included).
    package private(set) var output: [UInt8] = []
    /// The app's writes, each as it was written.
    package private(set) var writes: [[UInt8]] = []
    /// Whether raw mode and the app's modes are on.
    package private(set) var isEntered = false
    /// The undoing sequence armed by the app while ``isEntered``.
    package private(set) var restoreSequence: [UInt8] = []
    /// How many bytes of ``output`` ``clearOutput()`` forgot, in all: the
    /// position of `output`'s first byte in everything the app wrote.
    package private(set) var clearedByteCount = 0
    /// Whether the app stopped itself as a shell job (Ctrl+Z) and waits
    /// for SIGCONT (the test's `app.send(.continue)`).
    package private(set) var isSuspended = false
    /// How many times the app stopped itself as a shell job.
    package private(set) var suspendCount = 0
    private var continuation: (@MainActor () -> Void)?
    private var continueSubscription: Subscription?
    /// Where ComposeTerminalTesting keeps the screen it builds from
    /// ``output`` (`TestApp.screen`), one per terminal.
    package var screenStore: AnyObject?

    init(context: AppContext, columns: Int = 80, rows: Int = 24) {
        self.context = context
        self.columns = columns
        self.rows = rows
    }

    // MARK: The test's side

    /// Types `bytes` (a key's sequence, a paste): read by the app as one chunk.
    package func type(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pendingInput.append(bytes)
        scheduleDelivery()
    }

    /// Resizes the terminal; the app hears of it as of SIGWINCH.
    package func resize(columns: Int, rows: Int) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        context?.simulate { [weak self] in
            guard let self else { return }
            for connection in self.connections { connection.onResize?(self.columns, self.rows) }
        }
    }

    /// Hangs the terminal up (its window closed, the SSH connection
    /// dropped): what was typed is still read, then the app's input ends,
    /// as a read of a hung-up terminal does.
    package func hangUp() {
        context?.simulate { [weak self] in
            guard let self else { return }
            self.deliver()
            for connection in self.connections { connection.onEnd?() }
        }
    }

    /// Forgets the output kept so far.
    package func clearOutput() {
        clearedByteCount += output.count
        output.removeAll()
        writes.removeAll()
    }

    // MARK: The app's side

    func connect(
        onInput: @escaping @MainActor (UnsafeRawBufferPointer) -> Void,
        onResize: @escaping @MainActor (Int, Int) -> Void,
        onEnd: @escaping @MainActor () -> Void = {}
    ) -> Connection {
        let connection = Connection(terminal: self)
        connection.onInput = onInput
        connection.onResize = onResize
        connection.onEnd = onEnd
        connections.append(connection)
        // Reading the keyboard keeps the app running, as a read handle
        // keeps a loop alive.
        context?.beginWork()
        scheduleDelivery()
        return connection
    }

    private func detach(_ connection: Connection) {
        guard let index = connections.firstIndex(where: { $0 === connection }) else { return }
        connections.remove(at: index)
        context?.endWork()
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        let bytes = Array(bytes)
        output += bytes
        writes.append(bytes)
    }

    func enter(restoring sequence: [UInt8]) {
        isEntered = true
        restoreSequence = sequence
    }

    func leave() {
        guard isEntered else { return }
        isEntered = false
        output += restoreSequence
        writes.append(restoreSequence)
    }

    /// The app stops its job (Ctrl+Z; the terminal given back first): a
    /// live process would stop in `kill(0, SIGTSTP)`; here the stop is
    /// recorded, the app's clock goes on, and SIGCONT sent by the test
    /// (`app.send(.continue)`) continues it: `continued` runs then.
    func suspend(continued: @escaping @MainActor () -> Void) {
        isSuspended = true
        suspendCount += 1
        continuation = continued
        guard continueSubscription == nil, let context else { return }
        continueSubscription = context.simulatedSignals += { [weak self] number in
            guard number == SIGCONT else { return }
            self?.continueAfterSuspend()
        }
    }

    private func continueAfterSuspend() {
        guard isSuspended else { return }
        isSuspended = false
        let continued = continuation
        continuation = nil
        continued?()
    }

    private func scheduleDelivery() {
        guard !deliveryScheduled, !connections.isEmpty, !pendingInput.isEmpty, let context else { return }
        deliveryScheduled = true
        context.simulate { [weak self] in
            self?.deliver()
        }
    }

    private func deliver() {
        deliveryScheduled = false
        while let connection = connections.first, !pendingInput.isEmpty {
            let bytes = pendingInput.removeFirst()
            bytes.withUnsafeBytes { connection.onInput?($0) }
        }
    }
}

extension AppContext {
    /// The terminal of a test context (`TestApp`'s); `nil` in a live app.
    package var simulatedTerminal: SimulatedTerminal? { simulation?.terminal }
}
