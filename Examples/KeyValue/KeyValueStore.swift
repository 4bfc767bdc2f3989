import ComposeFraming

/// The keys and values all connections share, and the commands on them.
/// Keys and values are copies: a slice would hold the whole read buffer.
@MainActor
final class KeyValueStore {
    private(set) var entries: [Key: [UInt8]] = [:]
    /// The seed of the keys' hashes (see `Key`), drawn once per process.
    let seed = UInt64.random(in: 0 ... .max)
    static let commands: Set = ["ping", "echo", "get", "set", "del", "exists", "incr", "incrby", "mget", "mset", "dbsize", "flushall", "quit", "command", "config"]

    /// Appends the reply to `request` (RESP2) to `reply`; `true` for QUIT.
    func execute(_ request: Request, into reply: inout ByteBuffer) -> Bool {
        if let key = request.key {
            if let value = request.value {
                set(key, value)
                reply.writeStaticString("+OK\r\n")
            } else {
                reply.writeBulk(entries[key])
            }
            return false
        }
        let arguments = request.arguments
        let count = arguments.count, key = { Key($0, seed: self.seed) }
        let name = arguments[0].commandName
        switch name {
        case "get" where count == 2: reply.writeBulk(entries[key(arguments[1])])  // inline
        case "set" where count == 3:
            set(key(arguments[1]), arguments[2])
            reply.writeStaticString("+OK\r\n")
        case "mset" where count > 1 && count % 2 == 1:
            for index in stride(from: 1, to: count, by: 2) { set(key(arguments[index]), arguments[index + 1]) }
            reply.writeStaticString("+OK\r\n")
        case "set" where count > 3: reply.writeError("syntax error")
        case "ping" where count == 1: reply.writeStaticString("+PONG\r\n")
        case "ping" where count == 2, "echo" where count == 2: reply.writeBulk(arguments[1])
        case "del" where count > 1: reply.writeHeader(.integer, arguments.dropFirst().count { entries.removeValue(forKey: key($0)) != nil })
        case "exists" where count > 1: reply.writeHeader(.integer, arguments.dropFirst().count { entries[key($0)] != nil })
        case "incr" where count == 2, "incrby" where count == 3:
            let value = entries[key(arguments[1])].map { String(decoding: $0, as: UTF8.self).integer } ?? 0
            let by = count == 2 ? 1 : String(buffer: arguments[2]).integer
            guard let value, let by, case (let sum, false) = value.addingReportingOverflow(by) else {
                reply.writeError(value == nil || by == nil ? "value is not an integer or out of range" : "increment or decrement would overflow")
                break
            }
            set(key(arguments[1]), ByteBuffer(string: String(sum)))
            reply.writeHeader(.integer, sum)
        case "mget":
            reply.writeHeader(.array, count - 1)
            for argument in arguments.dropFirst() { reply.writeBulk(entries[key(argument)]) }
        case "dbsize" where count == 1: reply.writeHeader(.integer, entries.count)
        case "flushall" where count == 1 || (count == 2 && ["async", "sync"].contains(arguments[1].commandName)):
            entries = [:]
            reply.writeStaticString("+OK\r\n")
        case "flushall": reply.writeError("syntax error")
        case "quit":
            reply.writeStaticString("+OK\r\n")
            return true
        case "command": reply.writeStaticString("*0\r\n")
        case "config" where count > 2 && arguments[1].commandName == "get":
            // What redis-benchmark asks at start: no snapshots, no log.
            let known = [("save", ""), ("appendonly", "no")].filter { key, _ in arguments.dropFirst(2).contains { $0.commandName == key } }
            reply.writeHeader(.array, known.count * 2)
            for text in known.flatMap({ [$0.0, $0.1] }) { reply.writeBulk(Array(text.utf8)) }
        case "config" where count == 2 && arguments[1].commandName == "get": reply.writeError("wrong number of arguments for 'config|get' command")
        case "config" where count > 1: reply.writeError("unknown subcommand '\(arguments[1].prefix(128))'. Try CONFIG HELP.")
        case _ where Self.commands.contains(name): reply.writeError("wrong number of arguments for '\(name)' command")
        default:
            // Each argument shown up to 128 bytes of them in all, as redis.
            var shown = ""
            for argument in arguments.dropFirst() where shown.utf8.count < 128 { shown += "'\(argument.prefix(128 - shown.utf8.count))' " }
            reply.writeError("unknown command '\(arguments[0].prefix(128))', with args beginning with: \(shown)")
        }
        return false
    }

    /// Stores a copy of `value` under `key`, in place when the old one's
    /// memory fits; `entries` is one access (each pays an exclusivity check).
    private func set(_ key: Key, _ value: ByteBuffer) {
        value.withUnsafeReadableBytes { Self.set(key, $0, in: &entries) }
    }

    private static func set(_ key: Key, _ value: UnsafeRawBufferPointer, in entries: inout [Key: [UInt8]]) {
        guard let index = entries.index(forKey: key) else { return entries[key.copy()] = Array(value) }
        if entries.values[index].capacity > 2 * value.count + 64 { return entries.values[index] = Array(value) }
        entries.values[index].replaceSubrange(entries.values[index].indices, with: value)
    }
}

extension String {
    /// The text as a decimal integer in redis's form, or `nil`.
    var integer: Int? { Int(self).flatMap { String($0) == self ? $0 : nil } }
}

extension ByteBuffer {
    /// A command's name in lowercase ASCII (OR-ing 0x20 makes an uppercase
    /// letter lowercase and no other byte a letter); a small string.
    var commandName: String {
        readableBytes > 15 ? "" : String(unsafeUninitializedCapacity: readableBytes) { name in
            for (index, byte) in readableBytesView.enumerated() { name[index] = byte | 0x20 }
            return readableBytes
        }
    }
    /// At most `length` bytes, as text (U+FFFD for bytes that are not UTF-8).
    func prefix(_ length: Int) -> String { String(buffer: getSlice(at: readerIndex, length: Swift.min(length, readableBytes))!) }
    func copy() -> ByteBuffer { ByteBufferAllocator().buffer(buffer: self) }
    enum Header: UInt8 { case bulk = 36, array = 42, integer = 58 }  // $ * :
    /// `$3\r\n` (a header: the type's symbol, the number, CR LF), then
    /// `value` and CR LF if given: in one write, as each of ByteBuffer's
    /// writes pays for its checks (three writes cost a GET a fifth of its
    /// instructions).
    mutating func writeHeader(_ header: Header, _ number: Int, then value: UnsafeRawBufferPointer? = nil) {
        var (digits, rest) = (1, number.magnitude / 10)
        while rest > 0 { (digits, rest) = (digits + 1, rest / 10) }
        let end = 1 + (number < 0 ? 1 : 0) + digits + 2
        writeWithUnsafeMutableBytes(minimumWritableBytes: end + (value.map { $0.count + 2 } ?? 0)) { out in
            out[0] = header.rawValue
            if number < 0 { out[1] = UInt8(ascii: "-") }
            rest = number.magnitude
            for index in stride(from: end - 3, to: end - 3 - digits, by: -1) {
                out[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            (out[end - 2], out[end - 1]) = (13, 10)
            guard let value else { return end }
            UnsafeMutableRawBufferPointer(rebasing: out[end ..< end + value.count]).copyMemory(from: value)
            (out[end + value.count], out[end + value.count + 1]) = (13, 10)
            return end + value.count + 2
        }
    }
    /// A bulk string, or the null one (`$-1\r\n`).
    mutating func writeBulk(_ value: [UInt8]?) {
        guard let value else { return writeHeader(.bulk, -1) }
        value.withUnsafeBytes { writeHeader(.bulk, $0.count, then: $0) }
    }
    mutating func writeBulk(_ value: ByteBuffer) { value.withUnsafeReadableBytes { writeHeader(.bulk, $0.count, then: $0) } }
    /// `-ERR message`; a CR or LF (an argument's) becomes a space.
    mutating func writeError(_ message: String) {
        writeBytes(Array("-ERR \(message)".utf8.map { $0 == 13 || $0 == 10 ? 32 : $0 }) + [13, 10])
    }
}
