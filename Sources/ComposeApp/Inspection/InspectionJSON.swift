/// The JSON of the inspection protocol: a value, its compact text, and a
/// parser for request lines.
///
/// Hand-written rather than Foundation's coders: every app runs an
/// inspection server, and FoundationEssentials' JSON would cost each of
/// them about 2 MiB of memory (see ComposePersistence). Objects keep their
/// keys in the order given, so replies read the same every time.
enum InspectionJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([InspectionJSON])
    case object([Member])

    /// One key and value of an object.
    struct Member: Sendable, Equatable {
        let key: String
        let value: InspectionJSON
    }

    /// An object from key-value pairs, leaving out `nil` values.
    static func object(_ pairs: KeyValuePairs<String, InspectionJSON?>) -> InspectionJSON {
        .object(pairs.compactMap { key, value in value.map { Member(key: key, value: $0) } })
    }

    /// A duration as seconds.
    static func seconds(_ duration: Duration) -> InspectionJSON {
        let (seconds, attoseconds) = duration.components
        return .double(Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// The member `key` of an object; `nil` otherwise.
    subscript(key: String) -> InspectionJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var intValue: Int? {
        switch self {
        case .int(let value): value
        case .double(let value) where value == value.rounded() && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    // MARK: Writing

    /// The compact text, on one line (newlines in strings are escaped).
    ///
    /// Written as UTF-8 bytes and made a string once: appending to a
    /// `String` piece by piece cost hundreds of instructions per piece, and
    /// a follower gets a line like this for every event.
    var text: String {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value):
            if value.isFinite {
                output.append(contentsOf: Self.number(value).utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// A finite number as Foundation's `JSONEncoder` writes it: its
    /// shortest text without a trailing `.0` (`2`, `-0`,
    /// `1000000000000000`, `1e+16`, `0.1`).
    private static func number(_ value: Double) -> String {
        // The common case, an integer of a few digits, without a Double's
        // description.
        if value == value.rounded(), abs(value) < 1e15, value != 0 || value.sign == .plus {
            return String(Int(value))
        }
        var text = String(value)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// Appends `value` as a JSON string, in UTF-8, as Foundation's
    /// `JSONEncoder` writes it: quotes, backslashes and control characters
    /// escaped (`\b`, `\f`, `\n`, `\r`, `\t` by name, the others as
    /// `\u00XX`). Every byte escaped is ASCII, so the bytes of a character
    /// are never split.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                let hex = String(byte, radix: 16)
                output.append(contentsOf: (#"\u"# + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    // MARK: Parsing

    /// Why a text is not JSON: what was expected, at which byte offset.
    struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "\(message) at offset \(offset)" }
    }

    /// Parses one JSON value (surrounded by optional white space).
    ///
    /// - Throws: ``ParseError``.
    static func parse(_ text: String) throws(ParseError) -> InspectionJSON {
        var parser = Parser(bytes: Array(text.utf8))
        let value = try parser.value(depth: 0)
        parser.skipWhiteSpace()
        guard parser.offset == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// A recursive-descent parser over UTF-8 bytes.
    private struct Parser {
        let bytes: [UInt8]
        var offset = 0
        /// Deeper nesting is refused (a request never needs it).
        static let maximumDepth = 32

        func error(_ message: String) -> ParseError {
            ParseError(message: message, offset: offset)
        }

        mutating func skipWhiteSpace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> InspectionJSON {
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            skipWhiteSpace()
            guard offset < bytes.count else { throw error("expected a value") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let expected = Array(word.utf8)
            guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
                throw error("expected \(word)")
            }
            offset += expected.count
        }

        mutating func object(depth: Int) throws(ParseError) -> InspectionJSON {
            offset += 1
            var members: [Member] = []
            skipWhiteSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhiteSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhiteSpace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected :") }
                offset += 1
                members.append(Member(key: key, value: try value(depth: depth + 1)))
                skipWhiteSpace()
                guard offset < bytes.count else { throw error("expected , or }") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "}") else { throw error("expected , or }") }
                offset += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> InspectionJSON {
            offset += 1
            var values: [InspectionJSON] = []
            skipWhiteSpace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(values)
            }
            while true {
                values.append(try value(depth: depth + 1))
                skipWhiteSpace()
                guard offset < bytes.count else { throw error("expected , or ]") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "]") else { throw error("expected , or ]") }
                offset += 1
                return .array(values)
            }
        }

        mutating func string() throws(ParseError) -> String {
            offset += 1
            var scalars = String.UnicodeScalarView()
            var run: [UInt8] = []
            func flush() {
                if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars) }
                run.removeAll()
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    flush()
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush()
                    guard offset < bytes.count else { break }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{08}")
                    case UInt8(ascii: "f"): scalars.append("\u{0C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), bytes.count - offset >= 6,
                           bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") {
                            offset += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) {
                                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            } else {
                                // A high surrogate not followed by a low
                                // one: it is U+FFFD, and the escape after
                                // it is read on its own.
                                offset -= 6
                            }
                        }
                        scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                    default:
                        throw error("unknown escape")
                    }
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    run.append(byte)
                }
            }
            throw error("unterminated string")
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard bytes.count - offset >= 4,
                  let code = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16) else {
                throw error("expected four hex digits")
            }
            offset += 4
            return code
        }

        mutating func number() throws(ParseError) -> InspectionJSON {
            let start = offset
            while offset < bytes.count, "+-0123456789.eE".utf8.contains(bytes[offset]) { offset += 1 }
            let text = String(decoding: bytes[start..<offset], as: UTF8.self)
            if let value = Int(text) { return .int(value) }
            if let value = Double(text), !text.isEmpty { return .double(value) }
            offset = start
            throw error("expected a value")
        }
    }
}
