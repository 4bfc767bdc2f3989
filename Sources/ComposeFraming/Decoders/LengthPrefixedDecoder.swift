public import NIOCore

/// Frames that start with their length: a field of 1, 2, 4 or 8 bytes, in
/// either byte order, then that many bytes (the frame, a `ByteBuffer` slice
/// without the field).
///
/// ```swift
/// // 4-byte big-endian lengths, frames of at most 1 MiB.
/// connection.frames(using: LengthPrefixedDecoder()) += { message in ... }
/// // 2-byte little-endian lengths, at most 4 KiB.
/// let decoder = LengthPrefixedDecoder(lengthField: .twoBytes, endianness: .little, maximumLength: 4096)
/// ```
///
/// A length over ``maximumLength`` fails the stream with
/// `LoopError.Code.frameTooLarge` as soon as its field arrives: the frame's
/// bytes are never waited for. ``LengthPrefixedEncoder`` writes such frames.
public struct LengthPrefixedDecoder: FrameDecoder, Sendable {
    /// The width of the length field.
    public let lengthField: LengthFieldWidth
    /// The byte order of the length field.
    public let endianness: Endianness
    /// The longest frame accepted, without its length field.
    public let maximumLength: Int

    /// Frames after a `lengthField` length in `endianness` order, of at
    /// most `maximumLength` bytes (1 MiB unless given; at most what the
    /// field can say).
    public init(lengthField: LengthFieldWidth = .fourBytes, endianness: Endianness = .big, maximumLength: Int = 1 << 20) {
        self.lengthField = lengthField
        self.endianness = endianness
        self.maximumLength = max(0, min(maximumLength, lengthField.largestLength))
    }

    /// ``maximumLength`` plus the length field.
    public var maximumFrameLength: Int {
        maximumLength > Int.max - lengthField.rawValue ? .max : maximumLength + lengthField.rawValue
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        guard let length = lengthField.length(at: buffer.readerIndex, of: buffer, endianness: endianness) else { return nil }
        guard length <= maximumLength else {
            throw FrameTooLarge(length: length, limit: maximumLength, isAnnounced: true)
        }
        guard buffer.readableBytes - lengthField.rawValue >= length else { return nil }
        let frame = buffer.getSlice(at: buffer.readerIndex + lengthField.rawValue, length: length)
        buffer.moveReaderIndex(forwardBy: lengthField.rawValue + length)
        return frame
    }
}
