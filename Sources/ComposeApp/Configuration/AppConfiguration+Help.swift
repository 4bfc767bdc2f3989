import Compose

extension AppConfiguration {
    /// The configuration `--help` runs the root's `init()` with: the app's
    /// defaults and nothing else (no argument, variable or file), so each
    /// key read records its default.
    static func forHelp(options: ConfigOptions, appName: String? = nil) -> AppConfiguration {
        var options = options
        options.defaults[options.fileKey] = nil
        return AppConfiguration(options: options, appName: appName)
    }

    /// The settings read so far (by the root's `init()` when `--help` asks),
    /// each with its flag, environment variable, key in the file, default
    /// and description (``ConfigOptions/descriptions``), then the file's
    /// own setting. `StartupComponent.main()` prints it for `--help` or
    /// `-h` and exits 0, without starting the app.
    ///
    /// ```
    /// Usage: ComposeChat [--setting value ...]
    ///
    /// Each setting comes from the first of: its flag, its environment
    /// variable, the JSON file named by --config or CHAT_CONFIG, its default.
    ///
    ///   --port <int>            CHAT_PORT            file: port            default: 7070
    ///       The TCP port to listen on; 0 picks a free one.
    /// ```
    ///
    /// - Parameter program: The program's name, for the usage line.
    public func help(program: String) -> String {
        let prefix = environmentPrefix
        let readsFiles = options.fileFormat != nil
        var rows: [(flag: String, variable: String, file: String, value: String, about: String?)] = []
        for entry in accessLog.entries where !(readsFiles && entry.key == options.fileKey) {
            rows.append((
                "\(ConfigKeyNames.flag(entry.key)) <\(entry.type.helpName)>",
                ConfigKeyNames.environment(entry.key, prefix: prefix),
                readsFiles ? "file: \(entry.key)" : "",
                entry.value.map { "default: \($0)" } ?? "no default",
                options.descriptions[entry.key]
            ))
        }
        let fileFlag = ConfigKeyNames.flag(options.fileKey)
        let fileVariable = ConfigKeyNames.environment(options.fileKey, prefix: prefix)
        var sources = "its flag, its environment variable, its default."
        if let format = options.fileFormat {
            let fileDefault = options.defaults[options.fileKey]
            let example = accessLog.entries.first { $0.key != options.fileKey }.map { " by key, such as {\"\($0.key)\": ...}" } ?? ""
            rows.append((
                "\(fileFlag) <file>",
                fileVariable,
                "",
                fileDefault.map { "default: \($0)" } ?? "no default",
                options.descriptions[options.fileKey]
                    ?? "A \(format.name) file of these settings\(example). Read again, with the environment, on SIGHUP."
            ))
            sources = "its flag, its environment variable,\nthe \(format.name) file named by \(fileFlag) or \(fileVariable), its default."
        }

        let widths = (
            rows.map(\.flag.count).max() ?? 0,
            rows.map(\.variable.count).max() ?? 0,
            rows.map(\.file.count).max() ?? 0
        )
        var text = """
            \(usage(program: program))

            Each setting comes from the first of: \(sources)


            """
        for row in rows {
            let columns = [
                Self.padded(row.flag, to: widths.0),
                Self.padded(row.variable, to: widths.1),
                widths.2 > 0 ? Self.padded(row.file, to: widths.2) : nil,
                row.value,
            ]
            text += "  " + columns.compactMap { $0 }.joined(separator: "  ") + "\n"
            if let about = row.about { text += "      \(about)\n" }
        }
        return text
    }

    /// The command-line flags of no setting the app has (misspellings, or
    /// settings it does not have), each reported as
    /// `Diagnostic.Code.unknownArgument`. A setting the app has is one it
    /// read by then, or one ``ConfigOptions/descriptions`` or
    /// ``ConfigOptions/defaults`` names (for a setting read only later).
    /// `StartupComponent.main()` calls it once the root is active and,
    /// when it reports one, prints the usage line and stops the app with
    /// exit status 64 (``usageErrorExitStatus``, `EX_USAGE`), as for a
    /// positional argument nobody declared: `--prot 7000` must not leave
    /// the app listening on its default port.
    ///
    /// - Returns: The flags reported, as written (`--prot`).
    @discardableResult
    public func reportUnreadArguments() -> [String] {
        // Arrays, not a Set: tens of flags at most, and no search of the
        // runtime's conformance records for `String: Hashable` at startup.
        let flags = arguments.filter { $0.hasPrefix("--") && $0 != "--" }
        guard !flags.isEmpty else { return [] }
        var known = accessLog.entries.map { ConfigKeyNames.flag($0.key) }
        let fileFlag = ConfigKeyNames.flag(options.fileKey)
        if options.fileFormat != nil { known.append(fileFlag) }
        known += options.descriptions.keys.map(ConfigKeyNames.flag)
        known += options.defaults.keys.map(ConfigKeyNames.flag)
        var unread: [String] = []
        for argument in flags {
            let flag = String(argument.prefix { $0 != "=" })
            guard !known.contains(flag), !unread.contains(flag) else { continue }
            unread.append(flag)
        }
        guard let first = unread.first else { return [] }
        let readFlags = accessLog.entries.map { ConfigKeyNames.flag($0.key) }
        let settings = readFlags.isEmpty ? "it reads none" : "its settings: \(readFlags.joined(separator: ", "))"
        // A file the app cannot read: say how to make it read one.
        let files = unread.contains(fileFlag)
            ? " It reads no configuration file: its ConfigOptions has no fileFormat (ComposeConfiguration's .json reads JSON)."
            : ""
        report(Diagnostic(
            .unknownArgument,
            "Unknown option \(first)\(unread.count > 1 ? " (and \(unread.dropFirst().joined(separator: ", ")))" : ""): the app has no such setting; \(settings) (--help lists them).\(files)"
        ))
        return unread
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
