import ComposeFraming

/// What a client sent: a command's arguments (none for a blank line or
/// `*0`), or input that breaks the protocol (answered, then the connection
/// closes, as redis does).
enum Request {
    case command([ByteBuffer])
    case malformed(String)
}

/// Requests in RESP2, as redis reads them: arrays of bulk strings, or inline
/// commands (`GET k\r\n`, split at spaces and tabs, no quoting). Arguments
/// are slices of the connection's buffer: binary-safe, copied only by what
/// keeps them. Limits, and what breaking one answers:
/// - a bulk string of at most `maximumBulkLength` bytes (64 MiB unless set;
///   redis's proto-max-bulk-len is 512 MB): `invalid bulk length`;
/// - at most 1,048,576 arguments: `invalid multibulk length`;
/// - a count line of at most 32 bytes (redis allows 64 KiB, for the same
///   numbers): `too big mbulk count string`, `too big bulk count string`;
/// - an inline command of at most 64 KiB, as redis: `too big inline request`;
/// - a command of at most 256 MiB in all (redis: client-query-buffer-limit,
///   1 GB): past it the connection closes unanswered (`frameTooLarge`).
///
/// As redis, the CR LF after a bulk string is skipped, not checked.
struct RESPDecoder: FrameDecoder {
    var maximumBulkLength = 64 << 20
    var maximumFrameLength = 256 << 20
    private var inline = LineDecoder(maximumLength: .bytes(64 << 10))
    /// An incomplete array: its length, the arguments complete, and where
    /// the next starts (from the reader index: the buffer may move).
    private var pending = (count: 0, done: 0, offset: 0)

    init(maximumBulkLength: Int = 64 << 20) {
        self.maximumBulkLength = maximumBulkLength
    }

    struct ProtocolError: Error { let message: String }

    mutating func decode(buffer: inout ByteBuffer) throws -> Request? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        do {
            guard first == UInt8(ascii: "*") else { return try line(&buffer) }
            // The headers are read from the bytes in place: one access to
            // the buffer's memory, not one per byte.
            guard let (arguments, end) = try buffer.withUnsafeReadableBytes({ try array($0, of: buffer) }) else { return nil }
            buffer.moveReaderIndex(forwardBy: end)
            return .command(arguments)
        } catch let error as ProtocolError {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .malformed(error.message)
        }
    }

    /// The array at the start of `bytes` (the readable bytes of `buffer`)
    /// and where it ends, or `nil` while it is incomplete.
    private mutating func array(_ bytes: UnsafeRawBufferPointer, of buffer: ByteBuffer) throws -> ([ByteBuffer], Int)? {
        var (count, done, offset) = pending
        if offset == 0 {
            guard let (length, next) = try Self.number(bytes, at: 0, "mbulk") else { return nil }
            guard length <= 1 << 20 else { throw ProtocolError(message: "invalid multibulk length") }
            guard length > 0 else { return ([], next) }
            (count, done, offset) = (length, 0, next)
        }
        // Collected on the way when the whole array is read in one call
        // (the common case); otherwise read again once it is all there.
        let collects = done == 0
        var arguments: [ByteBuffer] = []
        if collects { arguments.reserveCapacity(min(count, 16)) }
        while done < count, offset < bytes.count {
            guard bytes[offset] == UInt8(ascii: "$") else {
                throw ProtocolError(message: "expected '$', got '\(Character(Unicode.Scalar(bytes[offset])))'")
            }
            guard let (length, start) = try Self.number(bytes, at: offset, "bulk") else { break }
            guard length >= 0, length <= maximumBulkLength else { throw ProtocolError(message: "invalid bulk length") }
            let end = start + length + 2
            guard end <= maximumFrameLength else { throw FrameTooLarge(length: end, limit: maximumFrameLength, isAnnounced: true) }
            guard end <= bytes.count else { break }
            if collects { arguments.append(buffer.getSlice(at: buffer.readerIndex + start, length: length)!) }
            (done, offset) = (done + 1, end)
        }
        pending = done < count ? (count, done, offset) : (0, 0, 0)
        guard done == count else { return nil }
        return collects ? (arguments, offset) : try array(bytes, of: buffer)
    }

    /// The number after the type byte of the line at `start`, and where
    /// the next line starts; `nil` while the line is incomplete.
    private static func number(_ bytes: UnsafeRawBufferPointer, at start: Int, _ kind: String) throws -> (Int, Int)? {
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\r") {
            guard end - start < 32 else { throw ProtocolError(message: "too big \(kind) count string") }
            end += 1
        }
        guard end + 1 < bytes.count else { return nil }
        guard let number = UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<end]).integer else {
            throw ProtocolError(message: kind == "bulk" ? "invalid bulk length" : "invalid multibulk length")
        }
        return (number, end + 2)
    }

    private mutating func line(_ buffer: inout ByteBuffer) throws -> Request? {
        let line: ByteBuffer?
        do {
            line = try inline.decode(buffer: &buffer)
        } catch is FrameTooLarge {
            throw ProtocolError(message: "too big inline request")
        }
        let words = line?.readableBytesView.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        return words.map { .command($0.map { ByteBuffer($0) }) }
    }
}

extension UnsafeRawBufferPointer {
    /// The bytes as a decimal integer in redis's form (an optional `-`, no
    /// `+`, no leading zero, no overflow), or `nil`.
    var integer: Int? {
        let negative = count > 0 && self[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        guard index < count, self[index] != UInt8(ascii: "0") || count == 1 else { return nil }
        guard count - index <= 18 else {
            // Longer: may overflow, which the standard library's parser checks.
            guard let value = Int(String(decoding: self, as: UTF8.self)), String(value).utf8.elementsEqual(self) else { return nil }
            return value
        }
        var value = 0
        while index < count {
            let digit = self[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }
}
