import ComposeFraming

/// RESP2 requests, as a user of ComposeFraming writes them: `*<count>\r\n`,
/// then `count` bulk strings `$<length>\r\n<bytes>\r\n`; each command is
/// the array of its arguments, slices of the input buffer. Bulk strings may
/// hold any byte (CR LF, NUL).
struct RESPRequestDecoder: FrameDecoder {
    struct ProtocolError: Error, CustomStringConvertible {
        var description: String
    }

    /// The longest bulk string.
    var maximumBulkLength = 1 << 20
    /// The most arguments in one command.
    var maximumArguments = 1024

    var maximumFrameLength: Int { maximumArguments * (maximumBulkLength + 32) }

    mutating func decode(buffer: inout ByteBuffer) throws -> [ByteBuffer]? {
        var index = buffer.readerIndex
        guard let count = try header("*", in: buffer, at: &index) else { return nil }
        guard count <= maximumArguments else { throw ProtocolError(description: "\(count) arguments, more than \(maximumArguments)") }
        var arguments: [ByteBuffer] = []
        arguments.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = try header("$", in: buffer, at: &index) else { return nil }
            guard length <= maximumBulkLength else {
                throw FrameTooLarge(length: length, limit: maximumBulkLength, isAnnounced: true)
            }
            guard buffer.writerIndex - index >= length + 2, let argument = buffer.getSlice(at: index, length: length) else { return nil }
            arguments.append(argument)
            index += length + 2
        }
        buffer.moveReaderIndex(to: index)
        return arguments
    }

    /// `<marker><digits>\r\n` at `index`: the number, with `index` moved
    /// past it; `nil` while its end has not arrived.
    private func header(_ marker: Character, in buffer: ByteBuffer, at index: inout Int) throws -> Int? {
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n"), from: index) else {
            if buffer.writerIndex - index > 20 { throw ProtocolError(description: "a header without its end") }
            return nil
        }
        var value = 0
        guard buffer.getInteger(at: index, as: UInt8.self) == marker.asciiValue, newline - index >= 3,
              buffer.getInteger(at: newline - 1, as: UInt8.self) == UInt8(ascii: "\r") else {
            throw ProtocolError(description: "expected \(marker)<number>\\r\\n")
        }
        for position in (index + 1)..<(newline - 1) {
            let digit = buffer.getInteger(at: position, as: UInt8.self)! &- UInt8(ascii: "0")
            guard digit < 10, value < 1 << 40 else { throw ProtocolError(description: "expected \(marker)<number>\\r\\n") }
            value = value * 10 + Int(digit)
        }
        index = newline + 1
        return value
    }
}

/// A RESP2 request of `arguments`, as clients send it.
func resp(_ arguments: String...) -> [UInt8] {
    var bytes = Array("*\(arguments.count)\r\n".utf8)
    for argument in arguments {
        bytes += Array("$\(argument.utf8.count)\r\n\(argument)\r\n".utf8)
    }
    return bytes
}

/// What the tests' servers record.
@MainActor
final class Log {
    var entries: [String] = []
    var commands = 0
    weak var lastConnection: TCPConnection?
}

/// A key-value store speaking RESP2: SET, GET, PING, QUIT.
struct KeyValueServer: Component {
    let listener = TCPServer(port: 6379)
    let clients = InstanceComponent<KeyValueClient>()
    let keys = Keys()
    let log = Log()
    var observers: Void {
        listener += { connection in clients.add { KeyValueClient(connection: connection, keys: keys, log: log) } }
        clients.forward(\.connection.errors) += { _, error in log.entries.append("error \(error.kind): \(error)") }
        clients.forward(\.connection.didClose) += { id, reason in
            log.entries.append("closed \(reason)")
            clients.remove(id)
        }
    }
}

@MainActor
final class Keys {
    var values: [ByteBuffer: ByteBuffer] = [:]
}

struct KeyValueClient: Component {
    let connection: TCPConnection
    let keys: Keys
    let log: Log
    var observers: Void {
        log.lastConnection = connection
        connection.frames(using: RESPRequestDecoder()) += { command in
            log.commands += 1
            switch command.first.map({ String(buffer: $0).uppercased() }) {
            case "PING":
                connection.write("+PONG\r\n")
            case "SET" where command.count == 3:
                // Copies: a slice would keep the whole input buffer alive.
                keys.values[ByteBuffer(bytes: command[1].readableBytesView)] = ByteBuffer(bytes: command[2].readableBytesView)
                connection.write("+OK\r\n")
            case "GET" where command.count == 2:
                guard let value = keys.values[command[1]] else {
                    connection.write("$-1\r\n")
                    return
                }
                connection.write { buffer in
                    buffer.writeString("$\(value.readableBytes)\r\n")
                    buffer.writeImmutableBuffer(value)
                    buffer.writeString("\r\n")
                }
            case "QUIT":
                connection.write("+OK\r\n")
                connection.close()
            default:
                connection.write("-ERR unknown command\r\n")
            }
        }
        connection.errors += { error in
            guard case .malformedFrame(let reason)? = error.framingError else { return }
            connection.write("-ERR Protocol error: \(reason)\r\n")
        }
    }
}
