public import NIOCore

/// Frames of one fixed length, as `ByteBuffer` slices: records, cells,
/// sensor readings. Bytes left over at end of input (less than a frame)
/// are dropped.
///
/// ```swift
/// connection.frames(using: FixedLengthDecoder(length: 16)) += { record in ... }
/// ```
public struct FixedLengthDecoder: FrameDecoder, Sendable {
    /// The length of every frame, in bytes (at least 1).
    public let length: Int

    /// Frames of `length` bytes (at least 1; smaller values mean 1).
    public init(length: Int) {
        self.length = max(1, length)
    }

    /// ``length``.
    public var maximumFrameLength: Int { length }

    public mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        buffer.readSlice(length: length)
    }
}
