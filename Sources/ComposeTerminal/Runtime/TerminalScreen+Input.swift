extension TerminalScreen {
    /// The bindings asked, in order, as of the last frame (see
    /// ``ViewComponent/keyBindings``).
    package var activeBindings: [KeyBinding] { bindings.map(\.binding) }

    /// One input from the terminal: to the first binding that takes it,
    /// else the screen's own answer; a frame follows at the turn's end.
    func received(_ input: TerminalInput) {
        guard !isStopped else { return }
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
            context?.shutdown.request(status: 0, reason: "Ctrl+C at the terminal")
        case .mouse(let event):
            guard case .press = event.action,
                  let region = canvas?.focusRegions.first(where: { $0.rect.contains(event.position) }) else { return }
            focus = region.id
        default:
            break
        }
    }

    /// Moves the focus `step` focusable views on, in drawing order,
    /// wrapping around.
    private func moveFocus(by step: Int) {
        guard let regions = canvas?.focusRegions, !regions.isEmpty else { return }
        let current = regions.firstIndex { $0.id == canvas?.focusedRegion?.id } ?? 0
        let next = ((current + step) % regions.count + regions.count) % regions.count
        focus = regions[next].id
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
    /// the focus, and Ctrl+C when no binding takes it.
    static func help(for bindings: [KeyBinding], focusables: Int) -> [KeyHelp] {
        var entries: [KeyHelp] = []
        var shownKeys: Set<KeyEvent> = []
        var takesCtrlC = false
        for binding in bindings {
            if binding.keys.contains(.ctrl("c")) { takesCtrlC = true }
            guard !binding.isHidden, !binding.help.isEmpty, let key = binding.keys.first, !shownKeys.contains(key) else { continue }
            shownKeys.formUnion(binding.keys)
            entries.append(KeyHelp(keys: key.description, help: binding.help))
        }
        if focusables > 1 { entries.append(KeyHelp(keys: "Tab", help: "next")) }
        if !takesCtrlC { entries.append(KeyHelp(keys: "Ctrl+C", help: "quit")) }
        return entries
    }
}
