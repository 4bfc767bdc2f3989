import ComposeFraming

/// RESP2 requests as redis reads them: arrays of bulk strings, or inline
/// commands split at spaces; a command's arguments (none: a blank line, `*0`)
/// are slices of the input (binary-safe). Limits (redis's in brackets): bulk
/// strings of `maximumBulkLength` bytes (64 MiB; 512 MB), 1,048,576 arguments,
/// count lines of 32 bytes (64 KiB), inline commands of 64 KiB, 256 MiB in all
/// (1 GB; past it the connection closes unanswered). A protocol error is a
/// `FramingError.malformedFrame` in redis's words. As redis, the CR LF after a
/// bulk string is not checked. GET and SET come out as such, matched and
/// their key hashed while the bytes are in hand (`seed`: the store's, without
/// a default: keys hashed with another seed would never be found).
struct RESPDecoder: FrameDecoder {
    var maximumBulkLength = 64 << 20, maximumFrameLength = 256 << 20
    var seed: UInt64
    var inline = LineDecoder(maximumLength: .bytes(64 << 10))
    /// An incomplete array: its length, arguments read, next one's offset.
    var pending = (count: 0, done: 0, offset: 0)

    mutating func decode(buffer: inout ByteBuffer) throws -> Request? {
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return nil }
        guard first == UInt8(ascii: "*") else {
            do {
                return try inline.decode(buffer: &buffer).map { line in Request(arguments: line.readableBytesView.split { $0 == 32 || $0 == 9 }.map { ByteBuffer($0) }) }
            } catch is FrameTooLarge { throw FramingError.malformedFrame(reason: "too big inline request") }
        }
        // Read in place: one access to the buffer's memory, not one per byte.
        guard let (arguments, end) = try buffer.withUnsafeReadableBytes({ try array($0, of: buffer) }) else { return nil }
        buffer.moveReaderIndex(forwardBy: end)
        return arguments
    }

    /// The request of the array `bytes` starts with, and its end; `nil` while incomplete.
    private mutating func array(_ bytes: UnsafeRawBufferPointer, of buffer: ByteBuffer) throws -> (Request, Int)? {
        var (count, done, offset) = pending
        if offset == 0 {
            guard let (length, next) = try Self.number(bytes, at: 0, "mbulk") else { return nil }
            guard length <= 1 << 20 else { throw FramingError.malformedFrame(reason: "invalid multibulk length") }
            guard length > 0 else { return (Request(), next) }
            (count, offset) = (length, next)
        }
        // Collected if read in one call (as a rule); else read again once all there.
        let collects = done == 0
        var (arguments, key, value, named) = ([ByteBuffer](), Key?.none, ByteBuffer?.none, false)
        while done < count, offset < bytes.count {
            guard bytes[offset] == 36 else { throw FramingError.malformedFrame(reason: "expected '$', got '\(Character(Unicode.Scalar(bytes[offset])))'") }
            guard let (length, start) = try Self.number(bytes, at: offset, "bulk") else { break }
            guard length >= 0, length <= maximumBulkLength else { throw FramingError.malformedFrame(reason: "invalid bulk length") }
            let end = start + length + 2
            guard end <= maximumFrameLength else { throw FrameTooLarge(length: end, limit: maximumFrameLength, isAnnounced: true) }
            guard end <= bytes.count else { break }
            if collects {
                // GET and SET: no array, no slice of the name; the key hashed here.
                let text = UnsafeRawBufferPointer(rebasing: bytes[start ..< start + length])
                if done == 0, count == 2 && Self.text(text, is: "get") || count == 3 && Self.text(text, is: "set") {
                    named = true
                } else if named {
                    let slice = buffer.getSlice(at: buffer.readerIndex + start, length: length)!
                    if done == 1 { key = Key(slice, text, seed: seed) } else { value = slice }
                } else {
                    if arguments.isEmpty { arguments.reserveCapacity(min(count, 16)) }
                    arguments.append(buffer.getSlice(at: buffer.readerIndex + start, length: length)!)
                }
            }
            (done, offset) = (done + 1, end)
        }
        pending = done < count ? (count, done, offset) : (0, 0, 0)
        guard done == count else { return nil }
        guard collects else { return try array(bytes, of: buffer) }
        return (Request(key: key, value: value, arguments: arguments), offset)
    }

    /// Whether `bytes` are `name` (lowercase ASCII) in any case (OR-ing 0x20
    /// makes an uppercase letter lowercase and no other byte a letter).
    static func text(_ bytes: UnsafeRawBufferPointer, is name: StaticString) -> Bool {
        bytes.count == name.utf8CodeUnitCount && bytes.indices.allSatisfy { bytes[$0] | 0x20 == name.utf8Start[$0] }
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

/// A command: GET and SET (the commands a cache serves most, matched on
/// their bytes by the decoder) as their key and value, any other as its
/// arguments. (An object: each copy of a request on its way to the observer
/// is then one retain; a struct or an enum of these retains each buffer.)
final class Request {
    /// GET's key, or SET's key and value.
    let key: Key?, value: ByteBuffer?
    /// Any other command's arguments (none for GET and SET).
    let arguments: [ByteBuffer]

    init(key: Key? = nil, value: ByteBuffer? = nil, arguments: [ByteBuffer] = []) { (self.key, self.value, self.arguments) = (key, value, arguments) }
}
