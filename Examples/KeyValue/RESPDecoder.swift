import ComposeFraming

/// RESP2 requests as redis reads them: arrays of bulk strings, or inline commands split at
/// spaces; arguments are slices of the input (binary-safe). Limits (redis's in brackets): bulk
/// strings of `maximumBulkLength` bytes (64 MiB; 512 MB), 1,048,576 arguments, count lines of
/// 32 bytes (64 KiB), inline commands of 64 KiB, 256 MiB in all (1 GB). A protocol error is a
/// `FramingError.malformedFrame` in redis's words. GET and SET come out as key and value.
struct RESPDecoder: FrameDecoder {
    var maximumBulkLength = 64 << 20, maximumFrameLength = 256 << 20
    var inline = LineDecoder(maximumLength: .bytes(64 << 10))
    var pending = (count: 0, done: 0, offset: 0)  // An incomplete array: its length, arguments read, next offset.

    mutating func decode(buffer: inout ByteBuffer) throws -> Request? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard first == UInt8(ascii: "*") else {
            do {
                return try inline.decode(buffer: &buffer).map { Request(arguments: $0.readableBytesView.split { $0 == 32 || $0 == 9 }.map { ByteBuffer($0) }) }
            } catch is FrameTooLarge { throw FramingError.malformedFrame(reason: "too big inline request") }
        }
        // Read in place: one access to the buffer's memory, not one per byte.
        guard let (request, end) = try buffer.withUnsafeReadableBytes({ try array($0, of: buffer) }) else { return nil }
        buffer.moveReaderIndex(forwardBy: end)
        return request
    }

    /// The request of the array `bytes` starts with, and its end; `nil` while incomplete.
    private mutating func array(_ bytes: UnsafeRawBufferPointer, of buffer: ByteBuffer) throws -> (Request, Int)? {
        var (count, done, offset) = pending
        if offset == 0 {
            guard let (length, next) = try Self.number(bytes, at: 0, "mbulk", in: Int.min ... 1 << 20) else { return nil }
            guard length > 0 else { return (Request(), next) }
            (count, offset) = (length, next)
        }
        let collects = done == 0  // Collected when read in one call (the rule), else read again when all there.
        var (arguments, key, value, isGetOrSet) = ([ByteBuffer](), ByteKey?.none, ByteBuffer?.none, false)
        while done < count, offset < bytes.count {
            guard bytes[offset] == 36 else { throw FramingError.malformedFrame(reason: "expected '$', got '\(Character(Unicode.Scalar(bytes[offset])))'") }
            guard let (length, start) = try Self.number(bytes, at: offset, "bulk", in: 0 ... maximumBulkLength) else { break }
            let end = start + length + 2  // As redis, the CR LF after a bulk string is not checked.
            guard end <= maximumFrameLength else { throw FrameTooLarge(length: end, limit: maximumFrameLength, isAnnounced: true) }
            guard end <= bytes.count else { break }
            if collects {
                let text = UnsafeRawBufferPointer(rebasing: bytes[start ..< start + length])
                // Whether `text` is `name` in any case (OR-ing 0x20 lowers a capital, makes no other byte a letter).
                let named = { (name: StaticString) in text.count == name.utf8CodeUnitCount && text.indices.allSatisfy { text[$0] | 0x20 == name.utf8Start[$0] } }
                if done == 0, count == 2 && named("get") || count == 3 && named("set") {
                    isGetOrSet = true  // No array, no slice of the name.
                } else {
                    let slice = buffer.getSlice(at: buffer.readerIndex + start, length: length)!
                    if !isGetOrSet { arguments.append(slice) } else if done == 1 { key = ByteKey(slice, readingFrom: text) } else { value = slice }
                }
            }
            (done, offset) = (done + 1, end)
        }
        pending = done < count ? (count, done, offset) : (0, 0, 0)
        guard done == count else { return nil }
        guard collects else { return try array(bytes, of: buffer) }
        return (Request(key: key, value: value, arguments: arguments), offset)
    }

    /// The number after the type byte of the line at `start` (`-`, 1 to 18 digits, no leading
    /// zero, within `range`) and where the next line starts; `nil` while incomplete.
    private static func number(_ bytes: UnsafeRawBufferPointer, at start: Int, _ kind: String, in range: ClosedRange<Int>) throws -> (Int, Int)? {
        var end = start + 1
        while end < bytes.count, bytes[end] != 13 {
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
        guard valid, range.contains(negative ? -value : value) else { throw FramingError.malformedFrame(reason: kind == "bulk" ? "invalid bulk length" : "invalid multibulk length") }
        return (negative ? -value : value, end + 2)
    }
}

/// A command: GET's key, SET's key and value, or any other's arguments.
/// (A class: handing a request on is one retain, not one per buffer.)
final class Request {
    let key: ByteKey?, value: ByteBuffer?, arguments: [ByteBuffer]
    init(key: ByteKey? = nil, value: ByteBuffer? = nil, arguments: [ByteBuffer] = []) { (self.key, self.value, self.arguments) = (key, value, arguments) }
}
