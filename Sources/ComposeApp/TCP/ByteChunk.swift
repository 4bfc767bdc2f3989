/// Bytes received on a connection, delivered without copying them out of
/// the loop's read buffer.
///
/// A chunk is an immutable collection of `UInt8`: iterate it, index it,
/// `Array(chunk)` it, or hand it straight back to
/// ``TCPConnection/write(_:)-(ByteChunk)`` (an echo copies nothing). Keeping a
/// chunk after the observer returns is safe: the loop then reads the next
/// bytes into a fresh buffer, so a chunk never changes.
public struct ByteChunk: RandomAccessCollection, CustomStringConvertible {
    let buffer: ReadBuffer
    public let count: Int

    init(buffer: ReadBuffer, count: Int) {
        self.buffer = buffer
        self.count = count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < count, "ByteChunk index \(position) out of range 0..<\(count)")
        return buffer.base.load(fromByteOffset: position, as: UInt8.self)
    }

    /// Calls `body` with the chunk's bytes (valid during the call only).
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(bytes)
    }

    /// The bytes, valid while this chunk (or a copy of it) exists
    /// (`package`: ComposeHTTP's parser runs on them in place).
    package var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: buffer.base, count: count)
    }

    public var description: String {
        "\(count) bytes"
    }
}

/// Memory libuv reads into. One is shared by every stream of a loop
/// (connections, child process pipes, standard input); when a delivered
/// chunk still holds it after the observers returned, the next read gets a
/// new one (see ``EventLoop/renewReadBufferIfKept(_:)``). 256 KiB, so that a streaming
/// peer's data takes fewer reads (and the echo of it fewer writes) than
/// with libuv's suggested 64 KiB; being shared, it costs that once per
/// loop, not per connection.
final class ReadBuffer {
    /// The memory's start and size, stored apart (rather than as a buffer
    /// pointer, whose size is computed and whose start is optional) for
    /// libuv's allocation callback, which hands them out on every read.
    let base: UnsafeMutableRawPointer
    let size: Int

    init(size: Int = 256 * 1024) {
        base = .allocate(byteCount: size, alignment: 16)
        self.size = size
    }

    var memory: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    deinit {
        base.deallocate()
    }
}
