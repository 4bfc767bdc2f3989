import ComposeFraming

/// The keys and values all connections share, and the commands on them.
/// Keys and values are copies: a slice would hold the whole read buffer.
@MainActor
final class KeyValueStore {
    private(set) var entries: [ByteKey: [UInt8]] = [:]
    static let commands: Set = ["ping", "echo", "get", "set", "del", "exists", "incr", "incrby", "mget", "mset", "dbsize", "flushall", "quit", "command", "config"]

    /// Appends the reply to `request` (RESP2) to `reply`; `true` for QUIT.
    func execute(_ request: Request, into reply: inout ByteBuffer) -> Bool {
        if let key = request.key {
            guard let value = request.value else { reply.writeBulk(entries[key]); return false }
            set(key, value)
            reply.writeStaticString("+OK\r\n")
            return false
        }
        let arguments = request.arguments, count = arguments.count, name = arguments[0].commandName
        switch name {
        case "get" where count == 2: reply.writeBulk(entries[ByteKey(arguments[1])])  // inline
        case "set" where count == 3, "mset" where count > 1 && count % 2 == 1:
            for index in stride(from: 1, to: count, by: 2) { set(ByteKey(arguments[index]), arguments[index + 1]) }
            reply.writeStaticString("+OK\r\n")
        case "set" where count > 3: reply.writeError("syntax error")
        case "ping" where count == 1: reply.writeStaticString("+PONG\r\n")
        case "ping" where count == 2, "echo" where count == 2: reply.writeBulk(arguments[1])
        case "del" where count > 1: reply.writeHeader(.integer, arguments.dropFirst().count { entries.removeValue(forKey: ByteKey($0)) != nil })
        case "exists" where count > 1: reply.writeHeader(.integer, arguments.dropFirst().count { entries[ByteKey($0)] != nil })
        case "incr" where count == 2, "incrby" where count == 3:
            let integer = { (text: String) in Int(text).flatMap { String($0) == text ? $0 : nil } }  // redis's form
            let value = entries[ByteKey(arguments[1])].map { integer(String(decoding: $0, as: UTF8.self)) } ?? 0
            let by = count == 2 ? 1 : integer(String(buffer: arguments[2]))
            guard let value, let by, case (let sum, false) = value.addingReportingOverflow(by) else {
                reply.writeError(value == nil || by == nil ? "value is not an integer or out of range" : "increment or decrement would overflow")
                break
            }
            set(ByteKey(arguments[1]), ByteBuffer(string: String(sum)))
            reply.writeHeader(.integer, sum)
        case "mget":
            reply.writeHeader(.array, count - 1)
            for argument in arguments.dropFirst() { reply.writeBulk(entries[ByteKey(argument)]) }
        case "dbsize" where count == 1: reply.writeHeader(.integer, entries.count)
        case "flushall" where count == 1 || (count == 2 && ["async", "sync"].contains(arguments[1].commandName)):
            entries = [:]
            reply.writeStaticString("+OK\r\n")
        case "flushall": reply.writeError("syntax error")
        case "quit": reply.writeStaticString("+OK\r\n")
        case "command": reply.writeStaticString("*0\r\n")
        case "config" where count > 2 && arguments[1].commandName == "get":
            // What redis-benchmark asks at start: no snapshots, no log.
            let known = [("save", ""), ("appendonly", "no")].filter { key, _ in arguments.dropFirst(2).contains { $0.commandName == key } }
            reply.writeHeader(.array, known.count * 2)
            for text in known.flatMap({ [$0.0, $0.1] }) { reply.writeBulk(Array(text.utf8)) }
        case "config" where count == 2 && arguments[1].commandName == "get": reply.writeError("wrong number of arguments for 'config|get' command")
        case "config" where count > 1: reply.writeError("unknown subcommand '\(arguments[1].prefix(128))'. Try CONFIG HELP.")
        case _ where Self.commands.contains(name): reply.writeError("wrong number of arguments for '\(name)' command")
        default:  // Each argument shown, up to 128 bytes of them in all, as redis.
            var shown = ""
            for argument in arguments.dropFirst() where shown.utf8.count < 128 { shown += "'\(argument.prefix(128 - shown.utf8.count))' " }
            reply.writeError("unknown command '\(arguments[0].prefix(128))', with args beginning with: \(shown)")
        }
        return name == "quit"
    }

    /// Stores a copy of `value` under `key`, in place when the old value's
    /// memory fits; `entries` is one access (each access is checked).
    private func set(_ key: ByteKey, _ value: ByteBuffer) { value.withUnsafeReadableBytes { Self.set(key, $0, in: &entries) } }
    private static func set(_ key: ByteKey, _ value: UnsafeRawBufferPointer, in entries: inout [ByteKey: [UInt8]]) {
        guard let index = entries.index(forKey: key) else { return entries[key.copy()] = Array(value) }
        if entries.values[index].capacity > 2 * value.count + 64 { return entries.values[index] = Array(value) }
        entries.values[index].replaceSubrange(entries.values[index].indices, with: value)
    }
}

extension ByteBuffer {
    /// A command's name in lowercase.
    var commandName: String { readableBytes > 15 ? "" : String(buffer: self).lowercased() }
    /// At most `length` bytes, as text (U+FFFD for bytes that are not UTF-8).
    func prefix(_ length: Int) -> String { String(buffer: getSlice(at: readerIndex, length: Swift.min(length, readableBytes))!) }
    enum Header: UInt8 { case bulk = 36, array = 42, integer = 58 }  // $ * :
    /// `$3\r\n` (the type's symbol, the number, CR LF), then `value` and CR LF
    /// if given, in one write: each write pays for its checks.
    mutating func writeHeader(_ header: Header, _ number: Int, then value: UnsafeRawBufferPointer? = nil) {
        var (digits, rest) = (1, number.magnitude / 10)
        while rest > 0 { (digits, rest) = (digits + 1, rest / 10) }
        let end = (number < 0 ? 4 : 3) + digits, size = end + (value.map { $0.count + 2 } ?? 0)
        writeWithUnsafeMutableBytes(minimumWritableBytes: size) { out in
            (out[0], out[1], out[end - 2], out[end - 1], rest) = (header.rawValue, UInt8(ascii: "-"), 13, 10, number.magnitude)
            for index in stride(from: end - 3, to: end - 3 - digits, by: -1) { (out[index], rest) = (UInt8(ascii: "0") + UInt8(rest % 10), rest / 10) }
            if let value {
                UnsafeMutableRawBufferPointer(rebasing: out[end ..< size - 2]).copyMemory(from: value)
                (out[size - 2], out[size - 1]) = (13, 10)
            }
            return size
        }
    }
    /// A bulk string, or the null one (`$-1\r\n`).
    mutating func writeBulk(_ value: [UInt8]?) { value?.withUnsafeBytes { writeHeader(.bulk, $0.count, then: $0) } ?? writeHeader(.bulk, -1) }
    mutating func writeBulk(_ value: ByteBuffer) { value.withUnsafeReadableBytes { writeHeader(.bulk, $0.count, then: $0) } }
    /// `-ERR message`; a CR or LF (an argument's) becomes a space.
    mutating func writeError(_ message: String) { writeBytes(Array("-ERR \(message)".utf8.map { $0 == 13 || $0 == 10 ? 32 : $0 }) + [13, 10]) }
}
