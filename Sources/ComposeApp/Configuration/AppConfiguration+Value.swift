extension AppConfiguration {
    /// A value written in code or read from a configuration file: an app's
    /// ``ConfigOptions/defaults``, a `TestApp`'s configuration, what a
    /// ``ConfigFileFormat`` parses.
    ///
    /// Written as a literal where one is expected:
    ///
    /// ```swift
    /// ConfigOptions(defaults: ["port": 8080, "greeting": "Hello", "ratio": 0.5, "verbose": false])
    /// ```
    ///
    /// A value converts to the type read when it does so exactly, as a
    /// value typed on the command line would: `60` reads as the `Double`
    /// 60, `"7000"` as the `Int` 7000, `"yes"` as `true`; `0.5` read as an
    /// `Int` does not convert, and the read gives its default.
    public enum Value: Sendable, Hashable, CustomStringConvertible {
        /// A string.
        case string(String)
        /// An integer.
        case int(Int)
        /// A number with a fraction (or too large for an `Int`).
        case double(Double)
        /// A Boolean.
        case bool(Bool)
        /// A list of strings.
        case stringArray([String])
        /// A list of integers.
        case intArray([Int])
        /// A list of numbers.
        case doubleArray([Double])
        /// A list of Booleans.
        case boolArray([Bool])

        /// The value as `--help` shows it: `8080`, `a,b`, `""` for an
        /// empty string.
        public var description: String {
            switch self {
            case .string(let string): string.isEmpty ? "\"\"" : string
            case .int(let int): String(int)
            case .double(let double): "\(double)"
            case .bool(let bool): String(bool)
            case .stringArray(let strings): strings.joined(separator: ",")
            case .intArray(let ints): ints.map(String.init).joined(separator: ",")
            case .doubleArray(let doubles): doubles.map { "\($0)" }.joined(separator: ",")
            case .boolArray(let bools): bools.map(String.init).joined(separator: ",")
            }
        }
    }

    /// The types a setting is read as, named as `--help` names them.
    package enum ValueType: Sendable, Hashable {
        case string, int, double, bool, stringArray, intArray, doubleArray, boolArray

        /// `int`, `string,...`: what `--help` writes after the flag.
        var helpName: String {
            switch self {
            case .string: "string"
            case .int: "int"
            case .double: "number"
            case .bool: "bool"
            case .stringArray: "string,..."
            case .intArray: "int,..."
            case .doubleArray: "number,..."
            case .boolArray: "bool,..."
            }
        }
    }
}

extension AppConfiguration.Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
    /// `"Hello"`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }

    /// `8080`.
    public init(integerLiteral value: Int) {
        self = .int(value)
    }

    /// `0.5`.
    public init(floatLiteral value: Double) {
        self = .double(value)
    }

    /// `true`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension AppConfiguration.Value {
    /// This value as `type`, when it converts exactly (see
    /// ``AppConfiguration/Value``); `nil` otherwise.
    package func converted(to type: AppConfiguration.ValueType) -> Self? {
        switch (self, type) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool),
            (.stringArray, .stringArray), (.intArray, .intArray), (.doubleArray, .doubleArray), (.boolArray, .boolArray):
            self
        case (.string(let string), _): Self.parse(string, as: type)
        case (.int(let int), .double): Double(exactly: int).map(Self.double)
        case (.int(let int), .string): .string(String(int))
        case (.double(let double), .int): Int(exactly: double).map(Self.int)
        case (.double(let double), .string): .string("\(double)")
        case (.bool(let bool), .string): .string(String(bool))
        case (.stringArray(let strings), _): Self.parse(strings, as: type)
        case (.intArray(let ints), .doubleArray): Self.all(ints.map { Double(exactly: $0) }).map(Self.doubleArray)
        case (.doubleArray(let doubles), .intArray): Self.all(doubles.map { Int(exactly: $0) }).map(Self.intArray)
        default: nil
        }
    }

    /// `text` as `type`, as a command-line value or an environment
    /// variable is read: a number when it parses as one, a Boolean from
    /// `true`, `false`, `yes`, `no`, `1` or `0` (any case), a list from
    /// comma-separated items (each trimmed of spaces).
    package static func parse(_ text: String, as type: AppConfiguration.ValueType) -> Self? {
        switch type {
        case .string: .string(text)
        case .int: Int(text).map(Self.int)
        case .double: Double(text).map(Self.double)
        case .bool: bool(text).map(Self.bool)
        case .stringArray, .intArray, .doubleArray, .boolArray:
            parse(text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed($0) }, as: type)
        }
    }

    /// `items` (each already one item) as `type`; a scalar type takes
    /// exactly one item.
    package static func parse(_ items: [String], as type: AppConfiguration.ValueType) -> Self? {
        switch type {
        case .stringArray: .stringArray(items)
        case .intArray: all(items.map { Int($0) }).map(Self.intArray)
        case .doubleArray: all(items.map { Double($0) }).map(Self.doubleArray)
        case .boolArray: all(items.map(bool)).map(Self.boolArray)
        case .string, .int, .double, .bool: items.count == 1 ? parse(items[0], as: type) : nil
        }
    }

    /// `true`, `false`, `yes`, `no`, `1`, `0`, in any case.
    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": true
        case "false", "no", "0": false
        default: nil
        }
    }

    private static func trimmed(_ text: Substring) -> String {
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return String(text[start..<max(start, end)])
    }

    private static func all<T>(_ values: [T?]) -> [T]? {
        var result: [T] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let value else { return nil }
            result.append(value)
        }
        return result
    }
}
