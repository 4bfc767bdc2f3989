import ComposeFraming

/// RESP2 requests as redis reads them: arrays of bulk strings, or inline
/// commands split at spaces; a command's arguments (none: a blank line, `*0`)
/// are slices of the input (binary-safe). Limits (redis's in brackets): bulk
/// strings of `maximumBulkLength` bytes (64 MiB; 512 MB), 1,048,576 arguments,
/// count lines of 32 bytes (64 KiB), inline commands of 64 KiB, 256 MiB in all
/// (1 GB; past it the connection closes unanswered). A protocol error is a
/// `FramingError.malformedFrame` in redis's words. As redis, the CR LF after a
/// bulk string is not checked.
struct RESPDecoder: FrameDecoder {
    var maximumBulkLength = 64 << 20, maximumFrameLength = 256 << 20
    var inline = LineDecoder(maximumLength: .bytes(64 << 10))
    /// An incomplete array: its length, arguments read, next one's offset.
    var pending = (count: 0, done: 0, offset: 0)

    mutating func decode(buffer: inout ByteBuffer) throws -> [ByteBuffer]? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard first == UInt8(ascii: "*") else {
            do {
                return try inline.decode(buffer: &buffer).map { line in line.readableBytesView.split { $0 == 32 || $0 == 9 }.map { ByteBuffer($0) } }
            } catch is FrameTooLarge { throw FramingError.malformedFrame(reason: "too big inline request") }
        }
        // Read in place: one access to the buffer's memory, not one per byte.
        guard let (arguments, end) = try buffer.withUnsafeReadableBytes({ try array($0, of: buffer) }) else { return nil }
        buffer.moveReaderIndex(forwardBy: end)
        return arguments
    }

    /// The arguments of the array `bytes` starts with, and its end; `nil` while incomplete.
    private mutating func array(_ bytes: UnsafeRawBufferPointer, of buffer: ByteBuffer) throws -> ([ByteBuffer], Int)? {
        var (count, done, offset) = pending
        if offset == 0 {
            guard let (length, next) = try Self.number(bytes, at: 0, "mbulk") else { return nil }
            guard length <= 1 << 20 else { throw FramingError.malformedFrame(reason: "invalid multibulk length") }
            guard length > 0 else { return ([], next) }
            (count, offset) = (length, next)
        }
        // Collected if read in one call (as a rule); else read again once all there.
        let collects = done == 0
        var arguments: [ByteBuffer] = []
        if collects { arguments.reserveCapacity(min(count, 16)) }
        while done < count, offset < bytes.count {
            guard bytes[offset] == 36 else { throw FramingError.malformedFrame(reason: "expected '$', got '\(Character(Unicode.Scalar(bytes[offset])))'") }
            guard let (length, start) = try Self.number(bytes, at: offset, "bulk") else { break }
            guard length >= 0, length <= maximumBulkLength else { throw FramingError.malformedFrame(reason: "invalid bulk length") }
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

    /// The number after the type byte of the line at `start` (`-`, 1 to 18 digits, no
    /// leading zero) and where the next line starts; `nil` while incomplete.
    private static func number(_ bytes: UnsafeRawBufferPointer, at start: Int, _ kind: String) throws -> (Int, Int)? {
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\r") {
            guard end - start < 32 else { throw FramingError.malformedFrame(reason: "too big \(kind) count string") }
            end += 1
        }
        guard end + 1 < bytes.count else { return nil }
        let negative = bytes[start + 1] == UInt8(ascii: "-")
        var (index, value) = (start + (negative ? 2 : 1), 0)
        var valid = index < end && end - index <= 18 && (bytes[index] != UInt8(ascii: "0") || (end - index == 1 && !negative))
        while valid, index < end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            (value, index, valid) = (value * 10 + Int(digit), index + 1, digit < 10)
        }
        guard valid else { throw FramingError.malformedFrame(reason: kind == "bulk" ? "invalid bulk length" : "invalid multibulk length") }
        return (negative ? -value : value, end + 2)
    }
}
