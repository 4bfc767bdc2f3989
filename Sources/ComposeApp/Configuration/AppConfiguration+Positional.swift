import Compose

extension AppConfiguration {
    /// The command line's positional arguments: those that are neither a
    /// flag (`--port`, `--port=1`) nor a value following a flag (`--port 1`),
    /// as the command-line layer tells them apart (it ignores them).
    ///
    /// - Parameter arguments: Command-line arguments, without the program's name.
    /// - Returns: Each positional argument with its index in `arguments`.
    static func positionalArguments(in arguments: [String]) -> [(index: Int, value: String)] {
        var positional: [(Int, String)] = []
        var afterFlag = false
        for (index, argument) in arguments.enumerated() {
            if argument.hasPrefix("--") {
                // `--key=value` takes no value after it; `--key` may.
                afterFlag = !argument.contains("=")
            } else if !afterFlag {
                positional.append((index, argument))
            }
        }
        return positional
    }

    /// `arguments` with the positional ones that ``ConfigOptions/positionalKeys``
    /// declares written as flags: `["9000"]` with `["port"]` is
    /// `["--port=9000"]`. Undeclared ones are left (the provider ignores
    /// them; the runtime refuses them first).
    static func flags(_ arguments: [String], positionalKeys: [String]) -> [String] {
        guard !positionalKeys.isEmpty else { return arguments }
        var flags = arguments
        for (number, positional) in positionalArguments(in: arguments).enumerated() where number < positionalKeys.count {
            flags[positional.index] = "\(ConfigKeyNames.flag(positionalKeys[number]))=\(positional.value)"
        }
        return flags
    }

    /// The positional arguments no ``ConfigOptions/positionalKeys`` entry
    /// declares, as written (`6398` in `kvresp 6398`).
    public var undeclaredPositionalArguments: [String] {
        Self.positionalArguments(in: arguments).dropFirst(options.positionalKeys.count).map(\.value)
    }

    /// The usage line: `Usage: notes [--setting value ...]`, with the
    /// declared positional arguments (`Usage: echo <port> [--setting value ...]`).
    ///
    /// - Parameter program: The program's name.
    public func usage(program: String) -> String {
        let positional = options.positionalKeys.map { " <\($0)>" }.joined()
        return "Usage: \(program)\(positional) [--setting value ...]"
    }

    /// Reports each positional argument nobody declared as
    /// `Diagnostic.Code.unexpectedArgument`. `StartupComponent.main()`
    /// calls it before anything starts and, when it reports one, prints
    /// the usage line and exits 64 (`EX_USAGE`): such an argument is a
    /// mistake (`kvresp 6398` meaning `--port 6398`) that the app would
    /// otherwise ignore.
    ///
    /// - Returns: The arguments reported.
    @discardableResult
    public func reportUndeclaredPositionalArguments() -> [String] {
        let undeclared = undeclaredPositionalArguments
        guard let first = undeclared.first else { return [] }
        let flags = options.positionalKeys.isEmpty
            ? "the app takes no positional argument; settings are flags, such as --port 9000"
            : "the app takes \(options.positionalKeys.count) (\(options.positionalKeys.joined(separator: ", ")))"
        let message = "Unexpected argument \(first)\(undeclared.count > 1 ? " (and \(undeclared.count - 1) more)" : ""): \(flags) (--help lists them)."
        report(Diagnostic(.unexpectedArgument, message))
        return undeclared
    }

    /// The exit status of an app started with a positional argument nobody
    /// declared, or an option it has no setting for: 64, `EX_USAGE` of
    /// sysexits.h. In the workers mode, a worker exiting with it is not
    /// started again: the parent stops the others and exits with it too.
    public static let usageErrorExitStatus: Int32 = 64
}
