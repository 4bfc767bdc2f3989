import Foundation

/// How `compose top` writes numbers: durations, lags, rates and sizes.
enum TopFormat {
    /// `2h 05m`, `3m 07s`, `12s`.
    static func uptime(_ seconds: Double) -> String {
        let whole = max(0, Int(seconds))
        if whole >= 3600 { return "\(whole / 3600)h " + String(format: "%02dm", (whole % 3600) / 60) }
        if whole >= 60 { return "\(whole / 60)m " + String(format: "%02ds", whole % 60) }
        return "\(whole)s"
    }

    /// `74.010s`: a time on the app's clock.
    static func seconds(_ seconds: Double) -> String {
        String(format: "%.3fs", seconds)
    }

    /// A lag: `0.12ms`, `35ms`, `1.2s`.
    static func lag(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.1fs", seconds) }
        let milliseconds = seconds * 1000
        return milliseconds >= 10 ? String(format: "%.0fms", milliseconds) : String(format: "%.2fms", milliseconds)
    }

    /// A rate: `0`, `4.5`, `850`, `12.3k`.
    static func rate(_ value: Double) -> String {
        if value >= 10_000 { return String(format: "%.1fk", value / 1000) }
        if value >= 100 || value == value.rounded() { return String(format: "%.0f", value) }
        return String(format: "%.1f", value)
    }

    /// `0 B`, `512 B`, `64 KiB`, `3.5 MiB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return "\(count >> 10) KiB" }
        return String(format: "%.1f MiB", Double(count) / Double(1 << 20))
    }
}
