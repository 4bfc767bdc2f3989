import NIOCore

/// The width of a length field: 1, 2, 4 or 8 bytes.
public enum LengthFieldWidth: Int, Sendable, Hashable, CaseIterable {
    /// One byte: lengths up to 255.
    case oneByte = 1
    /// Two bytes: lengths up to 65,535.
    case twoBytes = 2
    /// Four bytes: lengths up to 4 GiB - 1.
    case fourBytes = 4
    /// Eight bytes: lengths up to `Int.max`.
    case eightBytes = 8

    /// The largest length the field can hold.
    public var largestLength: Int {
        switch self {
        case .oneByte: Int(UInt8.max)
        case .twoBytes: Int(UInt16.max)
        case .fourBytes: Int(UInt32.max)
        case .eightBytes: Int.max
        }
    }

    /// The length at `index` of `buffer`, or `nil` when the field is not
    /// all there. An 8-byte length past `Int.max` is `Int.max`.
    func length(at index: Int, of buffer: ByteBuffer, endianness: Endianness) -> Int? {
        switch self {
        case .oneByte: buffer.getInteger(at: index, endianness: endianness, as: UInt8.self).map(Int.init)
        case .twoBytes: buffer.getInteger(at: index, endianness: endianness, as: UInt16.self).map(Int.init)
        case .fourBytes: buffer.getInteger(at: index, endianness: endianness, as: UInt32.self).map(Int.init)
        case .eightBytes: buffer.getInteger(at: index, endianness: endianness, as: UInt64.self).map { Int(clamping: $0) }
        }
    }
}
