import Compose
import Configuration

extension AppConfiguration {
    /// The configuration `--help` runs the root's `init()` with: the app's
    /// defaults and nothing else (no argument, variable or file), so each
    /// key read records its default.
    static func forHelp(options: ConfigOptions, appName: String? = nil) -> AppConfiguration {
        var options = options
        options.defaults[AbsoluteConfigKey(ConfigKey(options.fileKey))] = nil
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
        let fileComponents = ConfigKey(options.fileKey).components
        var rows: [(flag: String, variable: String, file: String, value: String, about: String?)] = []
        for entry in accessLog.entries where entry.key.components != fileComponents {
            let components = entry.key.components
            rows.append((
                "\(ConfigKeyNames.flag(components)) <\(Self.name(of: entry.type))>",
                ConfigKeyNames.environment(components, prefix: prefix),
                "file: \(ConfigKeyNames.fileKey(components))",
                entry.value.map { "default: \(Self.text(of: $0))" } ?? "no default",
                options.descriptions[ConfigKeyNames.fileKey(components)]
            ))
        }
        let fileFlag = ConfigKeyNames.flag(fileComponents)
        let fileVariable = ConfigKeyNames.environment(fileComponents, prefix: prefix)
        let fileDefault = options.defaults[AbsoluteConfigKey(fileComponents)]
        let example = accessLog.entries.first { $0.key.components != fileComponents }.map {
            " by key, such as {\"\(ConfigKeyNames.fileKey($0.key.components))\": ...}"
        } ?? ""
        rows.append((
            "\(fileFlag) <file>",
            fileVariable,
            "",
            fileDefault.map { "default: \(Self.text(of: $0))" } ?? "no default",
            options.descriptions[options.fileKey]
                ?? "A JSON file of these settings\(example). Read again, with the environment, on SIGHUP."
        ))

        let widths = (
            rows.map(\.flag.count).max() ?? 0,
            rows.map(\.variable.count).max() ?? 0,
            rows.map(\.file.count).max() ?? 0
        )
        var text = """
            \(usage(program: program))

            Each setting comes from the first of: its flag, its environment variable,
            the JSON file named by \(fileFlag) or \(fileVariable), its default.


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
        var known = Set(accessLog.entries.map { ConfigKeyNames.flag($0.key.components) })
        known.insert(ConfigKeyNames.flag(ConfigKey(options.fileKey).components))
        for key in options.descriptions.keys { known.insert(ConfigKeyNames.flag(ConfigKey(key).components)) }
        for key in options.defaults.keys { known.insert(ConfigKeyNames.flag(key.components)) }
        var unread: [String] = []
        for argument in arguments where argument.hasPrefix("--") && argument != "--" {
            let flag = String(argument.prefix { $0 != "=" })
            guard !known.contains(flag), !unread.contains(flag) else { continue }
            unread.append(flag)
        }
        guard let first = unread.first else { return [] }
        let readFlags = accessLog.entries.map { ConfigKeyNames.flag($0.key.components) }
        let settings = readFlags.isEmpty ? "it reads none" : "its settings: \(readFlags.joined(separator: ", "))"
        let diagnostic = Diagnostic(
            .unknownArgument,
            "Unknown option \(first)\(unread.count > 1 ? " (and \(unread.dropFirst().joined(separator: ", ")))" : ""): the app has no such setting; \(settings) (--help lists them)."
        )
        if let context {
            context.report(diagnostic)
        } else {
            Diagnostics.report(diagnostic)
        }
        return unread
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func name(of type: ConfigType) -> String {
        switch type {
        case .string: "string"
        case .int: "int"
        case .double: "number"
        case .bool: "bool"
        case .bytes: "base64"
        case .stringArray: "string,..."
        case .intArray: "int,..."
        case .doubleArray: "number,..."
        case .boolArray: "bool,..."
        case .byteChunkArray: "base64,..."
        }
    }

    private static func text(of value: ConfigValue) -> String {
        if value.isSecret { return "<secret>" }
        switch value.content {
        case .string(let string): return string.isEmpty ? "\"\"" : string
        case .int(let int): return "\(int)"
        case .double(let double): return "\(double)"
        case .bool(let bool): return "\(bool)"
        case .bytes(let bytes): return "\(bytes.count) bytes"
        case .stringArray(let strings): return strings.joined(separator: ",")
        case .intArray(let ints): return ints.map(String.init).joined(separator: ",")
        case .doubleArray(let doubles): return doubles.map { "\($0)" }.joined(separator: ",")
        case .boolArray(let bools): return bools.map(String.init).joined(separator: ",")
        case .byteChunkArray(let chunks): return "\(chunks.count) byte chunks"
        }
    }
}
