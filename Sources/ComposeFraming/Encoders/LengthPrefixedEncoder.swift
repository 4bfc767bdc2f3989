public import NIOCore

/// Writes each frame after its length: a field of 1, 2, 4 or 8 bytes, in
/// either byte order (what ``LengthPrefixedDecoder`` reads).
///
/// ```swift
/// let encoder = LengthPrefixedEncoder()       // 4 bytes, big-endian, up to 1 MiB
/// try connection.write(payload, using: encoder)
/// ```
///
/// A frame longer than ``maximumLength`` (or than the field can say) is
/// not written: the write throws ``FrameTooLarge``.
public struct LengthPrefixedEncoder: FrameEncoder, Sendable {
    /// The width of the length field.
    public let lengthField: LengthFieldWidth
    /// The byte order of the length field.
    public let endianness: Endianness
    /// The longest frame written, without its length field.
    public let maximumLength: Int

    /// Frames after a `lengthField` length in `endianness` order, of at
    /// most `maximumLength` bytes (1 MiB unless given; at most what the
    /// field can say).
    public init(lengthField: LengthFieldWidth = .fourBytes, endianness: Endianness = .big, maximumLength: Int = 1 << 20) {
        self.lengthField = lengthField
        self.endianness = endianness
        self.maximumLength = max(0, min(maximumLength, lengthField.largestLength))
    }

    public func encode(_ frame: ByteBuffer, into buffer: inout ByteBuffer) throws(FrameTooLarge) {
        let length = frame.readableBytes
        guard length <= maximumLength else {
            throw FrameTooLarge(length: length, limit: maximumLength, isAnnounced: true)
        }
        switch lengthField {
        case .oneByte: buffer.writeInteger(UInt8(length), endianness: endianness)
        case .twoBytes: buffer.writeInteger(UInt16(length), endianness: endianness)
        case .fourBytes: buffer.writeInteger(UInt32(length), endianness: endianness)
        case .eightBytes: buffer.writeInteger(UInt64(length), endianness: endianness)
        }
        buffer.writeImmutableBuffer(frame)
    }
}
