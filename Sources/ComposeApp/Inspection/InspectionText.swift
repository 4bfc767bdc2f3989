import Compose

/// The inspection reports as people read them: lines of at most
/// ``width`` characters (cut with `…`), for `compose inspect` without
/// `--json`, `TestApp.inspect(_:)` and the `SIGUSR1` log report.
enum InspectionText {
    /// The widest line: an 80-column terminal.
    static let width = 80

    // MARK: Tree

    /// `tree`: a header, the components as a tree with their emitters
    /// and stores under them, then the services.
    static func tree(_ report: TreeReport, app: String, pid: Int32) -> [String] {
        var lines: [String] = []
        var header = "\(app)  pid \(pid)  up \(duration(report.time))"
        if !report.route.isEmpty { header += "  route \(report.route)" }
        lines.append(header)
        if let focused = report.focused { lines.append("focused: \(focused)") }
        if let since = report.sendsCountedSince {
            lines.append("sends counted for the last \(duration(report.time - since))")
        } else {
            lines.append("sends not counted")
        }
        if report.components.isEmpty { lines.append("(no component tree)") }
        // Whether each open ancestor level still has siblings to come.
        var continues: [Bool] = []
        for (index, component) in report.components.enumerated() {
            let isLast = nextSibling(after: index, in: report.components) == nil
            continues = Array(continues.prefix(max(0, component.depth - 1)))
            let prefix = continues.map { $0 ? "│  " : "   " }.joined()
            let connector = component.depth == 0 ? "" : (isLast ? "└─ " : "├─ ")
            lines.append(prefix + connector + componentLine(component))
            if component.depth > 0 { continues.append(!isLast) }
            let hasChildren = report.components.indices.contains(index + 1) && report.components[index + 1].depth > component.depth
            let detailPrefix = continues.map { $0 ? "│  " : "   " }.joined() + (hasChildren ? "│ " : "  ")
            lines += details(of: component).map { detailPrefix + $0 }
        }
        if !report.services.isEmpty {
            lines.append("services (\(report.servicesPhase)):")
            for service in report.services {
                lines.append("  \(service.type)  \(service.state.rawValue)\(service.creation == .atStart ? "  (at start)" : "")")
            }
        }
        return lines.map(fit)
    }

    /// The index of the next component at the same depth under the same
    /// parent, if any.
    private static func nextSibling(after index: Int, in components: [ComponentReport]) -> Int? {
        let depth = components[index].depth
        var next = index + 1
        while next < components.count {
            if components[next].depth == depth { return next }
            if components[next].depth < depth { return nil }
            next += 1
        }
        return nil
    }

    private static func componentLine(_ component: ComponentReport) -> String {
        var parts = ["\(component.label): \(component.type)"]
        if let routes = component.routes { parts.append("routes " + routes.joined(separator: " > ")) }
        if let container = component.container {
            if let restarts = container.restarts {
                parts.append((container.instances == 1 ? "running" : "stopped") + ", \(restarts) restart\(restarts == 1 ? "" : "s")")
            } else {
                parts.append(container.instances == 1 ? "1 instance" : "\(container.instances) instances")
            }
        }
        if let supervisor = component.supervisor { parts.append("supervisor \(supervisor)") }
        if component.isFocused { parts.append("focused") }
        if !component.isActive { parts.append("inactive") }
        return parts.joined(separator: "  ")
    }

    /// The emitters with observers, sends or a value, and the stores; a
    /// count of the quiet emitters.
    private static func details(of component: ComponentReport) -> [String] {
        var lines: [String] = []
        var quiet = 0
        for emitter in component.emitters {
            guard emitter.observers > 0 || (emitter.sends ?? 0) > 0 || emitter.lastValue != nil else {
                quiet += 1
                continue
            }
            var line = "· \(emitter.name)  \(emitter.observers) obs"
            if let sends = emitter.sends { line += "  \(sends) sent" }
            if let last = emitter.lastValue { line += "  last \(last)" }
            lines.append(line)
        }
        for store in component.stores {
            var line = "▪ \(store.name) = \(store.state)"
            if let key = store.persistedAs { line += store.isSaved == true ? "  (saved as \(key))" : "  (\(key): memory only)" }
            if store.isMirror { line += "  (mirror)" }
            lines.append(line)
        }
        if quiet > 0 { lines.append("· \(quiet) quiet emitter\(quiet == 1 ? "" : "s")") }
        return lines
    }

    // MARK: Loop

    /// `loop`: handles by type, connections, child processes, health.
    static func loop(_ report: LoopReport) -> [String] {
        var lines = ["\(report.app)  pid \(report.pid)  up \(duration(report.time))"]
        if report.isSimulated {
            lines.append("handles: none (a test context: simulated I/O)")
        } else {
            lines.append("handles: \(report.handleCount) open")
            lines += wrap(report.handles.map { "\($0.type) \($0.count)" }, indent: "  ")
        }
        lines.append("connections: \(report.connections.count)")
        for connection in report.connections {
            var line = "  \(pad(connection.peer, 22)) queued \(pad(bytes(connection.queuedBytes), 9))"
            line += connection.path ?? "(no component)"
            if connection.isClosing { line += " (closing)" }
            lines.append(line)
        }
        lines.append("child processes: \(report.processes.count)")
        for process in report.processes {
            var line = "  pid \(pad(process.pid.map(String.init) ?? "-", 8)) \(process.state)"
            if let termination = process.termination { line += " (\(termination))" }
            if let executable = process.executable { line += "  \(executable)" }
            if let path = process.path { line += "  \(path)" }
            lines.append(line)
        }
        if let health = report.health {
            lines.append("loop: \(health)")
        } else {
            lines.append("loop: lag not measured")
        }
        lines.append("inspectors connected: \(report.inspectors)")
        return lines.map(fit)
    }

    // MARK: Events

    /// One `follow` line: an event as ``AppEvent/description`` reads.
    static func event(_ event: AppEvent) -> String {
        fit(event.description)
    }

    /// One `follow` line for a diagnostic.
    static func diagnostic(_ diagnostic: Diagnostic, time: Duration) -> String {
        fit("\(AppEvent.format(time)) \(diagnostic.path ?? "-") diagnostic \(diagnostic.code): \(diagnostic.message)")
    }

    /// The line a follower gets after events were dropped for it.
    static func dropped(_ count: Int) -> String {
        "… \(count) event\(count == 1 ? "" : "s") dropped: this client read too slowly"
    }

    // MARK: Formatting

    /// `items` joined by commas on as many lines as they need.
    private static func wrap(_ items: [String], indent: String) -> [String] {
        var lines: [String] = []
        var line = indent
        for (index, item) in items.enumerated() {
            let piece = item + (index < items.count - 1 ? "," : "")
            if line.count > indent.count, line.count + 1 + piece.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + piece
        }
        if line.count > indent.count { lines.append(line) }
        return lines
    }

    /// `line` cut to ``width`` characters.
    static func fit(_ line: String) -> String {
        guard line.count > width else { return line }
        return String(line.prefix(width - 1)) + "…"
    }

    /// `2h 05m`, `3m 07s`, `12.5s`, `12ms`.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds >= 3600 { return "\(seconds / 3600)h \(two((seconds % 3600) / 60))m" }
        if seconds >= 60 { return "\(seconds / 60)m \(two(seconds % 60))s" }
        let tenths = attoseconds / 100_000_000_000_000_000
        if seconds >= 1 { return tenths == 0 ? "\(seconds)s" : "\(seconds).\(tenths)s" }
        return "\(attoseconds / 1_000_000_000_000_000)ms"
    }

    /// `512 B`, `12 KiB`, `3.5 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return "\(count >> 10) KiB" }
        return "\((Double(count) / Double(1 << 20) * 10).rounded() / 10) MiB"
    }

    private static func two(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
