import Logging

/// The runtime of terminal views: what an app whose root is a
/// ``ViewComponent`` runs while it is up (one per app context, made by
/// ``ViewComponent/presentApp(in:root:)``).
///
/// - Each loop turn in which a component's emitter sent (a store
///   changed, a route moved), an input arrived, the focus moved or the
///   terminal was resized ends with a frame: the root's view laid out into
///   a grid of the terminal's size and drawn by difference
///   (``FrameRenderer``), in one write.
/// - Input goes to the key bindings of the components on the screen
///   (``ViewComponent/keyBindings`` says in which order); what none takes,
///   the screen answers: focus moves, Ctrl+C shuts the app down, Ctrl+Z
///   suspends it as a shell job.
/// - Without a terminal, each changed screen is printed as plain lines,
///   and keys are still read from standard input.
@MainActor
package final class TerminalScreen: AppPresentation {
    /// The terminal.
    package let device: TerminalDevice
    /// The last frame drawn: its grid, focus regions and components.
    package private(set) var canvas: Canvas?
    /// The focusable view that has the focus, as of the last frame.
    package internal(set) var focus: FocusID?
    /// Whether frames go to a terminal (else: printed lines).
    package let drawsOnTerminal: Bool
    /// The size line output lays frames out in.
    package static let lineOutputSize = Size(width: 80, height: 24)

    weak var context: AppContext?
    private weak var root: ComponentNode?
    private var renderer: FrameRenderer
    private var bytes: [UInt8] = []
    /// The bindings of the last frame, in the order they are asked.
    var bindings: [(node: ComponentNode, binding: KeyBinding)] = []
    var keyHelp: [KeyHelp] = []
    var needsFrame = true
    private var countedSends = -1
    private weak var routedFocus: ComponentNode?
    /// The component the screen put the tree's focus on (that of the
    /// focused view, when routing's is another).
    private weak var overriddenFocus: ComponentNode?
    private var lastLines: [String]?
    /// The size of the last frame.
    private var lastFrameSize: Size?
    /// The focus a resize hid (its view not drawn at the new size), given
    /// back by the next frame of another size that draws its view.
    var hiddenFocus: FocusID?
    /// Whether the reader of the plain lines went away.
    private var isOutputGone = false
    private(set) var isStopped = false

    private init(context: AppContext, root: ComponentNode, modes: TerminalModes) {
        self.context = context
        self.root = root
        device = TerminalDevice(context: context, modes: modes)
        renderer = FrameRenderer(colorDepth: ColorDepth(environment: context.environmentForColors))
        drawsOnTerminal = device.start()
        if !drawsOnTerminal { device.startReading() }
    }

    /// Starts showing the app of `context`, whose root is bound at `root`.
    static func start(in context: AppContext, root: ComponentNode, modes: TerminalModes) -> TerminalScreen {
        let screen = TerminalScreen(context: context, root: root, modes: modes)
        // Sends are what tells a turn changed something.
        context.countsSends = true
        screen.device.input += { [weak screen] input in screen?.received(input) }
        screen.device.resized += { [weak screen] _ in screen?.needsFrame = true }
        screen.device.didLoseInput += { [weak screen] in screen?.inputEnded() }
        screen.device.didContinue += { [weak screen] in screen?.continued() }
        if !screen.drawsOnTerminal {
            screen.device.watchOutputReader { [weak screen] in screen?.outputReaderWentAway() }
        }
        context.observeTurnEnds { [weak screen] in screen?.turnEnded() }
        context.terminalStore = screen
        screen.drawFrame()
        return screen
    }

    /// Gives the terminal back (the app is shutting down).
    package func stop() {
        guard !isStopped else { return }
        isStopped = true
        device.stop()
        if context?.terminalStore === self { context?.terminalStore = nil }
    }

    /// The terminal's input ended: on a terminal, it hung up (its window
    /// closed, the SSH connection dropped; the SIGHUP that comes with it
    /// means "reload" to an app), and nobody can see or type to the app
    /// any more: it shuts down. Without a terminal, a pipe of keys ended;
    /// the app goes on (timers, connections), shut down as any app.
    private func inputEnded() {
        guard drawsOnTerminal, !isStopped, let context else { return }
        context.logger.info("The terminal went away (its input ended): shutting down.")
        context.shutdown.request(status: 1, reason: "the terminal went away")
    }

    /// The app continues after Ctrl+Z (SIGCONT): the terminal shows what
    /// the shell left, so the next frame is drawn whole, at once.
    private func continued() {
        guard !isStopped else { return }
        context?.logger.info("Continued: the terminal is the app's again.")
        renderer.invalidate()
        needsFrame = true
        drawFrame()
    }

    // MARK: Frames

    /// The end of a loop turn: draws a frame if anything changed.
    private func turnEnded() {
        guard !isStopped, let context else { return }
        if needsFrame || context.countedSends != countedSends || context.tree?.routedFocus !== routedFocus {
            drawFrame()
        }
    }

    /// Lays the root's view out and draws it: on the terminal, only what
    /// changed, in one write; else as lines, when the text changed.
    package func drawFrame() {
        // Stopped as a job (Ctrl+Z): nothing to draw on until continued,
        // which draws the whole screen.
        guard !isStopped, !device.isSuspended, let context, let root, root.isActive else { return }
        needsFrame = false
        let size = drawsOnTerminal ? device.size : Self.lineOutputSize
        // A frame of another size (a resize) tries the focus an earlier
        // resize hid again: the user's focus comes back with its view.
        let isResized = size != lastFrameSize
        lastFrameSize = size
        if isResized, let hiddenFocus { focus = hiddenFocus }
        let wanted = focus
        let routed = context.tree?.routedFocus
        var canvas = layOut(root, size: size)
        // Routing moved the focus to another component: the focus goes to
        // its first focusable view.
        var routingMovedFocus = false
        if routed !== routedFocus {
            routedFocus = routed
            if let routed, let region = canvas.focusRegions.first(where: { $0.component.map { Self.node($0, isAtOrBelow: routed) } ?? false }),
               canvas.focusedRegion.map({ $0.component.map { Self.node($0, isAtOrBelow: routed) } ?? false }) != true {
                focus = region.id
                hiddenFocus = nil
                routingMovedFocus = true
            }
        }
        // Once more when the focus or the help line drawn were not those
        // of the frame (a vanished view had the focus, the bindings
        // changed): at most twice more, so that nothing loops.
        for _ in 0..<2 {
            let focused = canvas.focusedRegion?.id
            collectBindings(canvas)
            if focused == canvas.focus, keyHelp == canvas.keyHelp { break }
            focus = focused
            canvas = layOut(root, size: size)
        }
        focus = canvas.focusedRegion?.id
        // A resize hid the focused view (the screen too small for it): the
        // first one has the focus meanwhile, and the user's is kept until
        // a frame of another size draws its view again (or the user or
        // routing moves the focus).
        if isResized, !routingMovedFocus {
            hiddenFocus = wanted.flatMap { id in canvas.focusRegions.contains { $0.id == id } ? nil : id }
        }
        self.canvas = canvas
        // The component whose view has the focus has the tree's focus too
        // (its didEnterFocus), while it differs from routing's.
        if let tree = context.tree {
            let focusedComponent = canvas.focusedRegion?.component
            let wanted = focusedComponent === routed ? nil : focusedComponent
            if wanted !== overriddenFocus || (wanted != nil && tree.focusedNode !== wanted) {
                overriddenFocus = wanted
                tree.focus(on: wanted)
            }
        }
        countedSends = context.countedSends
        if drawsOnTerminal {
            bytes.removeAll(keepingCapacity: true)
            renderer.render(canvas.grid, cursor: canvas.cursor, into: &bytes)
            if !bytes.isEmpty { device.write(bytes) }
        } else {
            printLines(of: canvas.grid)
        }
    }

    private func layOut(_ root: ComponentNode, size: Size) -> Canvas {
        var canvas = Canvas(size: size, focus: focus)
        canvas.keyHelp = keyHelp
        canvas.draw(ComponentView(node: root))
        return canvas
    }

    /// Prints the rows of the frame that changed since the last one, top
    /// to bottom, with their trailing blanks cut; blank rows are left out.
    /// A stepper in a pipe prints `count: 1`, `count: 2`, ... (its help
    /// line once).
    ///
    /// When standard output's reader went away (`app | head -1`), nobody
    /// sees the app any more, as when a terminal hangs up: the app shuts
    /// down (see ``outputReaderWentAway()``).
    private func printLines(of grid: CellGrid) {
        guard !isOutputGone, let context else { return }
        let lines = (0..<grid.size.height).map { row in
            String(grid.text(row: row).reversed().drop { $0 == " " }.reversed())
        }
        let previous = lastLines ?? []
        lastLines = lines
        for (row, line) in lines.enumerated() where !line.isEmpty {
            if row < previous.count, previous[row] == line { continue }
            guard context.printLine(line) else {
                outputReaderWentAway()
                return
            }
        }
    }

    /// The reader of the plain lines went away (a pipe's reader exited:
    /// `compose top | head -1`): as a filter whose reader closed, the app
    /// ends, but gracefully (its state saved, its connections closed) and
    /// with status 0: the reader taking what it wanted and leaving is how
    /// `head`, `grep -q` and `less` say "enough", not an error (and 0 keeps
    /// `set -o pipefail` scripts going; a process killed by SIGPIPE would
    /// exit with 141). Nothing more is printed. Heard of from the failed
    /// write, or at once, when standard output is a pipe, from the device
    /// watching it (``TerminalDevice/watchOutputReader(_:)``).
    private func outputReaderWentAway() {
        guard !isOutputGone, !isStopped, let context else { return }
        isOutputGone = true
        context.logger.info("Standard output's reader went away (a pipe closed): shutting down.")
        context.shutdown.request(status: 0, reason: "standard output's reader went away")
    }

    static func node(_ node: ComponentNode, isAtOrBelow ancestor: ComponentNode) -> Bool {
        var current: ComponentNode? = node
        while let candidate = current {
            if candidate === ancestor { return true }
            current = candidate.parent
        }
        return false
    }
}

extension AppContext {
    /// The app's terminal screen, while it runs (ComposeTerminal).
    package var terminalScreen: TerminalScreen? { terminalStore as? TerminalScreen }
}

extension AppContext {
    /// The environment a terminal's colours are read from: the process's,
    /// or, in a test context, its simulated terminal's.
    var environmentForColors: [String: String] {
        isSimulated ? (simulatedTerminal?.environment ?? [:]) : ProcessEnvironment.variables()
    }
}
