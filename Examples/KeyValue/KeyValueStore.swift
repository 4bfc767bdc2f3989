import ComposeFraming

/// The keys and values every connection shares, and the commands on them:
/// `execute` appends a command's reply (RESP2) to the connection's buffer.
/// Keys and values are copied out of the request: a slice would keep the
/// whole read buffer alive.
@MainActor
final class KeyValueStore {
    private(set) var entries: [ByteBuffer: ByteBuffer] = [:]

    /// The smallest argument count of each command (`-n`: at least `n`,
    /// as redis writes arity), for the wrong-number-of-arguments error.
    static let arity = [
        "ping": -1, "echo": 2, "get": 2, "set": -3, "del": -2, "exists": -2, "incr": 2, "incrby": 3, "mget": -2,
        "mset": -3, "dbsize": 1, "flushall": -1, "quit": -1, "command": -1, "config": -2,
    ]

    /// Appends the reply to `arguments` (a command) to `reply`; `true` for
    /// QUIT (the connection closes after the reply).
    func execute(_ arguments: [ByteBuffer], into reply: inout ByteBuffer) -> Bool {
        do {
            return try run(arguments, into: &reply)
        } catch {
            reply.writeError(error.message)
            return false
        }
    }

    struct Failure: Error {
        let message: ByteBuffer
        init(_ message: String) { self.message = ByteBuffer(string: message) }
        init(_ message: ByteBuffer) { self.message = message }
    }

    private func run(_ arguments: [ByteBuffer], into reply: inout ByteBuffer) throws(Failure) -> Bool {
        let name = arguments[0].commandName
        let count = arguments.count
        switch name {
        case "get" where count == 2: reply.writeBulk(entries[arguments[1]])
        case "set" where count == 3:
            set(arguments[1], arguments[2])
            reply.writeStaticString("+OK\r\n")
        case "set" where count > 3: throw Failure("syntax error")
        case "ping" where count == 2: reply.writeBulk(arguments[1])
        case "ping" where count == 1: reply.writeStaticString("+PONG\r\n")
        case "echo" where count == 2: reply.writeBulk(arguments[1])
        case "del" where count >= 2, "exists" where count >= 2:
            var found = 0
            for key in arguments.dropFirst() where name == "exists" ? entries[key] != nil : entries.removeValue(forKey: key) != nil {
                found += 1
            }
            reply.writeNumber(found)
        case "incr" where count == 2, "incrby" where count == 3:
            let current = entries[arguments[1]]
            guard let value = current == nil ? 0 : current!.integer, let by = count == 2 ? 1 : arguments[2].integer else { throw Failure("value is not an integer or out of range") }
            let (sum, overflow) = value.addingReportingOverflow(by)
            guard !overflow else { throw Failure("increment or decrement would overflow") }
            set(arguments[1], ByteBuffer(string: String(sum)))
            reply.writeNumber(sum)
        case "mget":
            reply.writeHeader(.array, count - 1)
            for key in arguments.dropFirst() { reply.writeBulk(entries[key]) }
        case "mset" where count % 2 == 1:
            for index in stride(from: 1, to: count, by: 2) { set(arguments[index], arguments[index + 1]) }
            reply.writeStaticString("+OK\r\n")
        case "dbsize" where count == 1: reply.writeNumber(entries.count)
        case "flushall":
            guard count == 1 || (count == 2 && ["async", "sync"].contains(arguments[1].commandName)) else { throw Failure("syntax error") }
            entries = [:]
            reply.writeStaticString("+OK\r\n")
        case "quit":
            reply.writeStaticString("+OK\r\n")
            return true
        case "command": reply.writeStaticString("*0\r\n")
        case "config" where count >= 2 && arguments[1].commandName == "get":
            guard count >= 3 else { throw Failure("wrong number of arguments for 'config|get' command") }
            // What redis-benchmark asks at start: no snapshots, no log.
            let known = [("save", ""), ("appendonly", "no")].filter { pair in arguments.dropFirst(2).contains { $0.commandName == pair.0 } }
            reply.writeHeader(.array, known.count * 2)
            for (key, value) in known { reply.writeBulk(ByteBuffer(string: key)); reply.writeBulk(ByteBuffer(string: value)) }
        case "config" where count >= 2: throw Failure("unknown subcommand '\(String(buffer: arguments[1]).prefix(128))'. Try CONFIG HELP.")
        default:
            if Self.arity[name] != nil { throw Failure("wrong number of arguments for '\(name)' command") }
            var text = ByteBuffer(string: "unknown command '")
            text.writeImmutableBuffer(arguments[0].prefix(128))
            text.writeString("', with args beginning with: ")
            let start = text.writerIndex
            for argument in arguments.dropFirst() where text.writerIndex - start < 128 {
                let shown = text.writerIndex - start
                text.writeString("'")
                text.writeImmutableBuffer(argument.prefix(128 - shown))
                text.writeString("' ")
            }
            throw Failure(text)
        }
        return false
    }

    /// Stores a copy of `value` under `key` (the key copied only when new).
    private func set(_ key: ByteBuffer, _ value: ByteBuffer) {
        guard let index = entries.index(forKey: key) else {
            entries[key.copy()] = value.copy()
            return
        }
        entries.values[index].overwrite(with: value)
    }
}

extension ByteBuffer {
    /// The readable bytes as a decimal integer in redis's form, or `nil`.
    var integer: Int? { withUnsafeReadableBytes { $0.integer } }

    /// A command's name in lowercase ASCII: OR-ing 0x20 turns an uppercase
    /// letter into its lowercase and no other byte into a letter, so `GeT`
    /// finds `get` and nothing else does. Small strings, not allocated.
    var commandName: String {
        guard readableBytes <= 15 else { return "" }
        return String(unsafeUninitializedCapacity: readableBytes) { name in
            for (index, byte) in readableBytesView.enumerated() { name[index] = byte | 0x20 }
            return readableBytes
        }
    }

    /// A copy of the readable bytes that shares no memory with this buffer.
    func copy() -> ByteBuffer {
        var copy = ByteBufferAllocator().buffer(capacity: readableBytes)
        copy.writeImmutableBuffer(self)
        return copy
    }

    /// At most the first `length` readable bytes.
    func prefix(_ length: Int) -> ByteBuffer { getSlice(at: readerIndex, length: Swift.min(length, readableBytes))! }

    /// Replaces the readable bytes with `value`'s: in place (no allocation)
    /// when the memory fits and is not much larger, else with a copy.
    mutating func overwrite(with value: ByteBuffer) {
        guard capacity <= 2 * value.readableBytes + 64 else {
            self = value.copy()
            return
        }
        clear()
        writeImmutableBuffer(value)
    }

    /// What a header starts with: `$`, `*` or `:`.
    enum Header: Int { case bulk, array, integer }

    /// `$3\r\n`: the header's symbol, `number`, CR LF. Those of 0 to 127 are
    /// made once and written whole, as redis's shared headers are.
    mutating func writeHeader(_ header: Header, _ number: Int) {
        if number >= 0, number < 128 {
            writeBytes(Self.smallHeaders[header.rawValue][number])
        } else {
            writeString("\(["$", "*", ":"][header.rawValue])\(number)\r\n")
        }
    }

    private static let smallHeaders = ["$", "*", ":"].map { symbol in (0..<128).map { Array("\(symbol)\($0)\r\n".utf8) } }

    mutating func writeNumber(_ number: Int) { writeHeader(.integer, number) }

    mutating func writeBulk(_ value: ByteBuffer?) {
        guard let value else {
            writeStaticString("$-1\r\n")
            return
        }
        writeHeader(.bulk, value.readableBytes)
        writeImmutableBuffer(value)
        writeStaticString("\r\n")
    }

    /// `-ERR message`; a CR or LF in it (an argument's) becomes a space.
    mutating func writeError(_ message: ByteBuffer) {
        writeStaticString("-ERR ")
        writeBytes(message.readableBytesView.map { $0 == 13 || $0 == 10 ? 32 : $0 })
        writeStaticString("\r\n")
    }

}
