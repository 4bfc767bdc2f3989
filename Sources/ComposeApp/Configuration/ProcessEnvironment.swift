internal import CLibUV

/// This process's environment variables, read from `environ`.
///
/// What `ProcessInfo.processInfo.environment` gives, without going through
/// Foundation: each read of it there builds the dictionary anew behind
/// Foundation's `ProcessInfo` (docs/footprint.md), and the configuration
/// reads the environment at startup and on every reload. Read on the
/// loop's thread, like every other use of the environment in an app
/// (nothing in Compose calls `setenv`).
package enum ProcessEnvironment {
    /// Every `NAME=value` entry as `[NAME: value]`; an entry without `=` is
    /// skipped, and of two entries with the same name the later one wins.
    package static func variables() -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = compose_environ() else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                variables[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}
