/// A piece of a request's body, a view of the bytes the connection read:
/// nothing is copied unless you copy it (`Array(chunk)`). Keeping a chunk
/// after the observer returns is safe (the loop then reads into a fresh
/// buffer), as for a `ByteChunk`.
public struct HTTPBodyChunk: RandomAccessCollection, CustomStringConvertible {
    let chunk: ByteChunk
    let offset: Int
    /// The number of bytes.
    public let count: Int

    init(chunk: ByteChunk, offset: Int, count: Int) {
        self.chunk = chunk
        self.offset = offset
        self.count = count
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }

    /// The byte at `position`.
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "HTTPBodyChunk index \(position) out of range 0..<\(count)")
        return chunk[offset + position]
    }

    /// Calls `body` with the chunk's bytes (valid during the call only).
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(bytes)
    }

    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: chunk.bytes[offset..<(offset + count)])
    }

    /// `12 bytes`.
    public var description: String { "\(count) bytes" }
}
