import Compose

/// The inspection reports as people read them: lines of at most the
/// request's width (cut with `…`; a width of 0 never cuts), for `compose
/// inspect` without `--json`, `TestApp.inspect(_:)` and the `SIGUSR1` log
/// report (never cut).
enum InspectionText {
    // MARK: Tree

    /// `tree`: a header, the components as a tree with their emitters
    /// and stores under them, then the services.
    static func tree(_ report: TreeReport, app: String, pid: Int32, width: Int) -> [String] {
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
        return lines.map { fit($0, width: width) }
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
    static func loop(_ report: LoopReport, width: Int) -> [String] {
        var lines = ["\(report.app)  pid \(report.pid)  up \(duration(report.time))"]
        if report.isSimulated {
            lines.append("handles: none (a test context: simulated I/O)")
        } else {
            lines.append("handles: \(report.handleCount) open")
            lines += wrap(report.handles.map { "\($0.type) \($0.count)" }, indent: "  ", width: width == 0 ? InspectionRequest.defaultWidth : width)
        }
        if !report.listeners.isEmpty {
            lines.append("listeners: \(report.listeners.count)")
            for listener in report.listeners {
                var line = "  \(pad(listener.address, 22)) "
                if listener.isTLS {
                    line += "TLS, handshakes \(listener.handshakesInFlight)\(listener.maximumHandshakesInFlight.map { "/\($0)" } ?? "")  "
                }
                line += listener.path
                if !listener.isListening { line += " (not listening)" }
                lines.append(line)
                for certificate in listener.certificates {
                    lines.append("    \(certificate.subject)  \(expiry(certificate.notAfter, now: listener.wallClock))  \(certificate.file)")
                }
            }
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
        return lines.map { fit($0, width: width) }
    }

    // MARK: Events

    /// How a follower's lines show times: since the follow began, or as
    /// UTC wall-clock time.
    struct Clock {
        /// The app's clock when the follow began.
        var start: Duration
        /// The wall-clock time (since the Unix epoch) at ``start``, for
        /// ``InspectionRequest/TimeFormat/utc``.
        var wallStart: Duration
        var format: InspectionRequest.TimeFormat

        /// `time` (on the app's clock) as a follower's line shows it.
        func stamp(_ time: Duration) -> String {
            switch format {
            case .relative: InspectionText.relative(time - start)
            case .utc: InspectionText.utc(wallStart + (time - start))
            }
        }
    }

    /// One `follow` line: `  +1.250s chat.server.connections sent 127.0.0.1:4242`.
    static func event(_ event: AppEvent, clock: Clock, width: Int) -> String {
        fit("\(clock.stamp(event.time)) \(event.summary)", width: width)
    }

    /// One `follow` line for a diagnostic.
    static func diagnostic(_ diagnostic: Diagnostic, time: Duration, clock: Clock, width: Int) -> String {
        fit("\(clock.stamp(time)) \(diagnostic.path ?? "-") diagnostic \(diagnostic.code): \(diagnostic.message)", width: width)
    }

    /// The line a follower gets after events were dropped for it.
    static func dropped(_ count: Int) -> String {
        "… \(count) event\(count == 1 ? "" : "s") dropped: this client read too slowly"
    }

    /// A time since the follow began, to the millisecond, right-aligned in
    /// 9 columns so that a stream's times line up: `  +0.000s`,
    /// ` +12.345s`, `+754.250s`. A time before the start (none should be)
    /// shows as `+0.000s`.
    static func relative(_ elapsed: Duration) -> String {
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = max(0, seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
        let text = "+\(milliseconds / 1_000).\(three(milliseconds % 1_000))s"
        return String(repeating: " ", count: max(0, 9 - text.count)) + text
    }

    /// A wall-clock time (since the Unix epoch) in UTC, ISO 8601 to the
    /// millisecond: `2025-06-01T12:34:56.789Z`.
    static func utc(_ sinceEpoch: Duration) -> String {
        let (seconds, attoseconds) = sinceEpoch.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        let totalSeconds = floorDivide(milliseconds, 1_000)
        let days = floorDivide(totalSeconds, 86_400)
        let secondOfDay = totalSeconds - days * 86_400
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        return "\(four(year))-\(two(month))-\(two(day))T\(two(secondOfDay / 3_600)):\(two(secondOfDay % 3_600 / 60)):\(two(secondOfDay % 60)).\(three(milliseconds - totalSeconds * 1_000))Z"
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    // MARK: Formatting

    /// `items` joined by commas on as many lines of `width` as they need.
    private static func wrap(_ items: [String], indent: String, width: Int) -> [String] {
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

    /// `line` cut to `width` characters (0: not cut).
    static func fit(_ line: String, width: Int) -> String {
        guard width > 0, line.count > width else { return line }
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

    /// When a certificate expires, seen `now` (since the Unix epoch):
    /// `expires 2026-12-01T00:00:00.000Z (in 29d 23h)`, or `expired ...
    /// (3h 02m ago)`.
    static func expiry(_ notAfter: Int64, now: Duration) -> String {
        let left = Duration.seconds(notAfter) - now
        let date = utc(.seconds(notAfter))
        func span(_ duration: Duration) -> String {
            let seconds = duration.components.seconds
            return seconds >= 2 * 86_400 ? "\(seconds / 86_400)d \(two(seconds % 86_400 / 3_600))h" : self.duration(duration)
        }
        return left > .zero ? "expires \(date) (in \(span(left)))" : "expired \(date) (\(span(.zero - left)) ago)"
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

    private static func three(_ value: Int64) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }

    private static func four(_ value: Int64) -> String {
        value < 0 ? "\(value)" : String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
