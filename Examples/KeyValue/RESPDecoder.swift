import ComposeFraming

/// What a client sent: a command's arguments (empty for a blank line or
/// `*0`), or input that breaks the protocol (the connection then closes).
enum Request {
    case command([ByteBuffer])
    case malformed(String)
}

/// Requests in RESP2, as redis reads them: arrays of bulk strings
/// (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`), or inline commands (`GET k\r\n`,
/// words split at spaces and tabs; no quoting). Arguments are slices of the
/// connection's buffer: binary-safe, copied only by what keeps them.
///
/// Limits, and what breaking one answers (`-ERR Protocol error: ...`, then
/// the connection closes, as redis does):
/// - a bulk string of at most `maximumBulkLength` bytes (64 MiB unless set;
///   redis's `proto-max-bulk-len` is 512 MB): `invalid bulk length`;
/// - at most 1,048,576 arguments: `invalid multibulk length`;
/// - a count line of at most 32 bytes (a count has at most 20 digits; redis
///   allows 64 KiB): `too big mbulk count string`, `too big bulk count string`;
/// - an inline command of at most 64 KiB (as redis): `too big inline request`;
/// - a command of at most `maximumFrameLength` bytes in all (256 MiB unless
///   set; redis's `client-query-buffer-limit` is 1 GB): past it the
///   connection closes without a reply (`frameTooLarge`, logged), as redis
///   closes a client over its query buffer limit.
///
/// As redis, the CR LF after a bulk string is skipped, not checked.
struct RESPDecoder: FrameDecoder {
    var maximumBulkLength = 64 << 20
    var maximumFrameLength = 256 << 20
    static let maximumArguments = 1 << 20
    static let maximumCountLine = 32
    private var inline = LineDecoder(maximumLength: .bytes(64 << 10))
    /// An incomplete array: its length, the arguments complete, and where
    /// the next one starts (from the reader index: the buffer may move).
    private var pending = (count: 0, done: 0, offset: 0)

    init(maximumBulkLength: Int = 64 << 20) {
        self.maximumBulkLength = maximumBulkLength
    }

    struct ProtocolError: Error { let message: String }

    mutating func decode(buffer: inout ByteBuffer) throws -> Request? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        do {
            return first == UInt8(ascii: "*") ? try array(&buffer) : try line(&buffer)
        } catch let error as ProtocolError {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .malformed(error.message)
        }
    }

    private mutating func array(_ buffer: inout ByteBuffer) throws -> Request? {
        var (count, done, offset) = pending
        if offset == 0 {
            guard let (length, next) = try header(buffer, at: 0, "mbulk") else { return nil }
            guard length <= Self.maximumArguments else { throw ProtocolError(message: "invalid multibulk length") }
            guard length > 0 else {
                buffer.moveReaderIndex(forwardBy: next)
                return .command([])
            }
            (count, done, offset) = (length, 0, next)
        }
        // Collected on the way when the whole array is read in one call,
        // the common case; otherwise read again once it is all there.
        var arguments: [ByteBuffer]? = done == 0 ? [] : nil
        arguments?.reserveCapacity(min(count, 16))
        while done < count {
            guard let type = buffer.getInteger(at: buffer.readerIndex + offset, as: UInt8.self) else { break }
            guard type == UInt8(ascii: "$") else {
                throw ProtocolError(message: "expected '$', got '\(Character(Unicode.Scalar(type)))'")
            }
            guard let (length, start) = try header(buffer, at: offset, "bulk") else { break }
            guard length >= 0, length <= maximumBulkLength else { throw ProtocolError(message: "invalid bulk length") }
            let end = start + length + 2
            guard end <= maximumFrameLength else { throw FrameTooLarge(length: end, limit: maximumFrameLength, isAnnounced: true) }
            guard end <= buffer.readableBytes else { break }
            arguments?.append(buffer.getSlice(at: buffer.readerIndex + start, length: length)!)
            (done, offset) = (done + 1, end)
        }
        pending = done < count ? (count, done, offset) : (0, 0, 0)
        guard done == count else { return nil }
        guard let arguments else { return try array(&buffer) }
        buffer.moveReaderIndex(forwardBy: offset)
        return .command(arguments)
    }

    /// The number after the type byte of the line at `offset`, and where
    /// the next line starts; `nil` while the line is incomplete.
    private func header(_ buffer: ByteBuffer, at offset: Int, _ kind: String) throws -> (Int, Int)? {
        let start = buffer.readerIndex + offset
        let cr = buffer.firstIndex(of: UInt8(ascii: "\r"), from: start)
        guard (cr ?? buffer.writerIndex) - start <= Self.maximumCountLine else {
            throw ProtocolError(message: "too big \(kind) count string")
        }
        guard let cr, cr + 1 < buffer.writerIndex else { return nil }
        guard let number = buffer.getSlice(at: start + 1, length: cr - start - 1)!.integer else {
            throw ProtocolError(message: "invalid \(kind == "bulk" ? "bulk" : "multibulk") length")
        }
        return (number, cr + 2 - buffer.readerIndex)
    }

    private mutating func line(_ buffer: inout ByteBuffer) throws -> Request? {
        let line: ByteBuffer?
        do {
            line = try inline.decode(buffer: &buffer)
        } catch is FrameTooLarge {
            throw ProtocolError(message: "too big inline request")
        }
        guard let line else { return nil }
        let words = line.readableBytesView.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return .command(words.map { ByteBuffer($0) })
    }
}

extension ByteBuffer {
    /// The readable bytes as a decimal integer in redis's form (an optional
    /// `-`, no `+`, no leading zero, no overflow), or `nil`.
    var integer: Int? {
        let bytes = readableBytesView
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = bytes.dropFirst(negative ? 1 : 0)
        guard let lead = digits.first, lead != UInt8(ascii: "0") || (digits.count == 1 && !negative) else { return nil }
        var value = 0
        for byte in digits {
            let digit = Int(byte) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }
}
