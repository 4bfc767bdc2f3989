#if canImport(Glibc)
import Glibc
#endif

extension TerminalScreen {
    /// One input from the terminal: to the first binding that takes it,
    /// else the screen's own answer; a frame follows at the turn's end.
    func received(_ input: TerminalInput) {
        guard !isStopped, !device.isSuspended else { return }
        needsFrame = true
        for (node, binding) in bindings {
            // A node that went away since the frame (a route moved in an
            // earlier binding of this same turn's input) answers nothing.
            guard !node.isDestroyed else { continue }
            if context?.run({ node.withScope { binding.answer(input) } }) == true { return }
        }
        answerUntaken(input)
    }

    /// Tab, Shift+Tab, Down and Up move the focus; a mouse press focuses
    /// the view under it; Ctrl+C shuts the app down.
    private func answerUntaken(_ input: TerminalInput) {
        switch input {
        case .key(.tab), .key(.down): moveFocus(by: 1)
        case .key(.backTab), .key(.up): moveFocus(by: -1)
        case .key(.ctrl("c")):
            interrupt()
        case .key(.ctrl("z")):
            suspend()
        case .mouse(let event):
            guard case .press = event.action,
                  let region = canvas?.focusRegions.first(where: { $0.rect.contains(event.position) }) else { return }
            focus = region.id
            hiddenFocus = nil
        default:
            break
        }
    }

    /// Ctrl+C with no binding for it: what SIGINT does, since raw mode
    /// keeps the terminal from sending it. The first shuts the app down
    /// gracefully; another while it shuts down gives the terminal back and
    /// raises SIGINT, which exits at once as a second SIGINT does.
    private func interrupt() {
        guard let context else { return }
        if context.shutdown.phase == .running || context.shutdown.phase == .starting {
            context.shutdown.request(status: 0, reason: "Ctrl+C at the terminal")
        } else if !context.isSimulated {
            // The terminal first: SIGINT may not be a shutdown signal of
            // this app, and then its default action ends the process.
            stop()
            raise(SIGINT)
        }
    }

    /// Ctrl+Z with no binding for it: what SIGTSTP does to a job, since
    /// raw mode keeps the terminal from sending it. The terminal is given
    /// back (the shell's screen shows again, echo and line editing on),
    /// the job stops; on SIGCONT (`fg`) the modes come back and the whole
    /// screen is drawn again (``TerminalDevice/didContinue``). Without a
    /// terminal (keys from a pipe) there is nothing to give back and no
    /// job to stop from a key: it is ignored.
    private func suspend() {
        guard drawsOnTerminal, let context else { return }
        context.logger.info("Ctrl+Z: the terminal is given back and the app stops until it is continued (fg).")
        device.suspend()
    }

    /// Moves the focus `step` focusable views on, in drawing order,
    /// wrapping around.
    private func moveFocus(by step: Int) {
        guard let regions = canvas?.focusRegions, !regions.isEmpty else { return }
        let current = regions.firstIndex { $0.id == canvas?.focusedRegion?.id } ?? 0
        let next = ((current + step) % regions.count + regions.count) % regions.count
        focus = regions[next].id
        // The user chose: a focus a resize hid is not given back.
        hiddenFocus = nil
    }

    /// The bindings the next input is offered to, in order, and the help
    /// line's entries, from `canvas`'s components and focus.
    func collectBindings(_ canvas: Canvas) {
        var ordered: [(node: ComponentNode, binding: KeyBinding)] = []
        var seen: Set<ObjectIdentifier> = []
        let focused = canvas.focusedRegion
        let drawn = canvas.componentRegions.map(\.node)
        let start = focused?.component ?? context?.tree?.focusedNode.flatMap { node in drawn.contains { $0 === node } ? node : nil }
        // The focused view's own bindings first.
        if let focused, let node = focused.component {
            for binding in Self.bindings(of: node) where binding.focusName.map({ FocusID(component: node.path, name: $0) == focused.id }) == true {
                ordered.append((node, binding))
            }
        }
        var chain: [ComponentNode] = []
        var current = start
        while let node = current {
            chain.append(node)
            current = node.parent
        }
        for node in chain + drawn where seen.insert(ObjectIdentifier(node)).inserted {
            for binding in Self.bindings(of: node) where binding.focusName == nil {
                ordered.append((node, binding))
            }
        }
        bindings = ordered
        keyHelp = Self.help(for: ordered.map(\.binding), focusables: canvas.focusRegions.count)
    }

    /// A component's bindings, when it is a ``ViewComponent``.
    private static func bindings(of node: ComponentNode) -> [KeyBinding] {
        (node.componentValue as? any ViewComponent)?.keyBindings ?? []
    }

    /// The help line: each shown binding once by its first key (the
    /// first one asked wins), then Tab when there is somewhere to move
    /// the focus, and Ctrl+C when no binding takes it. (Ctrl+Z, which
    /// suspends, is not shown: it does what it does in every terminal
    /// program.) While the focused
    /// view takes every input (``KeyBinding/input(whileFocused:_:)``: a
    /// text field), bindings to plain characters are left out: typing
    /// them inserts text.
    static func help(for bindings: [KeyBinding], focusables: Int) -> [KeyHelp] {
        var entries: [KeyHelp] = []
        var shownKeys: Set<KeyEvent> = []
        var takesCtrlC = false
        let typingTakesText = bindings.contains { $0.keys.isEmpty && $0.focusName != nil }
        for binding in bindings {
            if binding.keys.contains(.ctrl("c")) { takesCtrlC = true }
            if typingTakesText, binding.keys.allSatisfy({ $0.text != nil }) { continue }
            guard !binding.isHidden, !binding.help.isEmpty, let key = binding.keys.first, !shownKeys.contains(key) else { continue }
            shownKeys.formUnion(binding.keys)
            entries.append(KeyHelp(keys: key.description, help: binding.help))
        }
        if focusables > 1 { entries.append(KeyHelp(keys: "Tab", help: "next")) }
        if !takesCtrlC { entries.append(KeyHelp(keys: "Ctrl+C", help: "quit")) }
        return entries
    }
}
