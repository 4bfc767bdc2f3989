public import ComposeApp
public import NIOCore

/// Lines, as `ByteBuffer` slices: the bytes up to each `\n`, without it
/// (and without a `\r` just before it), copied out of nothing.
///
/// ```swift
/// connection.frames(using: LineDecoder()) += { line in
///     connection.write(line)           // the line's bytes, no String made
///     connection.write("\n")
/// }
/// ```
///
/// A line longer than ``maximumLength`` (not counting its `\n` or `\r\n`)
/// fails the stream with `LoopError.Code.frameTooLarge` as soon as that is
/// known (its bytes seen without the newline), so at most the limit plus
/// one read is buffered. At end of input a last line without its newline
/// is delivered. Linear: each byte is searched once (`memchr`), however the
/// line arrives.
public struct LineDecoder: FrameDecoder, Sendable {
    /// The longest line accepted, in bytes, without its `\n` or `\r\n`.
    public let maximumLength: LineLengthLimit
    /// The readable bytes already searched for a newline, without one.
    private var searched = 0

    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// Lines of at most `maximumLength` bytes (64 KiB unless given).
    public init(maximumLength: LineLengthLimit = .default) {
        self.maximumLength = maximumLength
    }

    /// ``maximumLength`` plus the `\r\n`.
    public var maximumFrameLength: Int {
        guard let limit = maximumLength.bytes else { return .max }
        return limit > Int.max - 2 ? .max : limit + 2
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let start = buffer.readerIndex
        guard let newline = buffer.firstIndex(of: Self.newline, from: start + searched) else {
            searched = buffer.readableBytes
            // Without its newline the line is at least this long (a `\r`
            // at the end may be the start of `\r\n`).
            let length = Self.content(of: buffer, upTo: buffer.writerIndex)
            if let limit = maximumLength.bytes, length > limit {
                throw FrameTooLarge(length: length, limit: limit, isAnnounced: false)
            }
            return nil
        }
        searched = 0
        let length = Self.content(of: buffer, upTo: newline)
        if let limit = maximumLength.bytes, length > limit {
            throw FrameTooLarge(length: length, limit: limit, isAnnounced: false)
        }
        let line = buffer.getSlice(at: start, length: length)
        buffer.moveReaderIndex(to: newline + 1)
        return line
    }

    /// The last line, without its newline.
    public mutating func decodeLast(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        if let line = try decode(buffer: &buffer) { return line }
        guard buffer.readableBytes > 0 else { return nil }
        searched = 0
        let length = Self.content(of: buffer, upTo: buffer.writerIndex)
        let line = buffer.getSlice(at: buffer.readerIndex, length: length)
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return line
    }

    /// The bytes from the reader index to `end`, less a `\r` just before
    /// `end`.
    private static func content(of buffer: ByteBuffer, upTo end: Int) -> Int {
        let length = end - buffer.readerIndex
        guard length > 0, buffer.getInteger(at: end - 1, as: UInt8.self) == carriageReturn else { return length }
        return length - 1
    }
}
