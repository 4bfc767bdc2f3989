public import ComposeApp
public import NIOCore
#if canImport(Glibc)
import Glibc
#endif

extension ByteBuffer {
    /// The index (in the buffer's index space, like `readerIndex`) of the
    /// first `byte` among the readable bytes from `index` on (the reader
    /// index by default), or `nil`. Searches with `memchr`, a few bytes per
    /// instruction, where `readableBytesView.firstIndex(of:)` goes byte by
    /// byte (about 6 instructions a byte).
    ///
    /// ```swift
    /// guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    /// let line = buffer.readSlice(length: newline - buffer.readerIndex)
    /// ```
    public func firstIndex(of byte: UInt8, from index: Int? = nil) -> Int? {
        let start = Swift.max(index ?? readerIndex, readerIndex)
        let offset = start - readerIndex
        guard offset < readableBytes else { return nil }
        return withUnsafeReadableBytes { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            #if canImport(Glibc)
            guard let found = memchr(base + offset, Int32(byte), bytes.count - offset) else { return nil }
            return readerIndex + (UnsafeRawPointer(found) - base)
            #else
            return bytes[offset...].firstIndex(of: byte).map { readerIndex + $0 }
            #endif
        }
    }
}

extension ByteBuffer {
    /// A buffer holding a copy of `chunk`'s bytes (a chunk is a view of
    /// the loop's read buffer, which the next read reuses: keeping its
    /// bytes means copying them, once). `frames(using:)` does this for you.
    public init(_ chunk: ByteChunk) {
        self = ByteBufferAllocator().buffer(capacity: chunk.count)
        chunk.withUnsafeBytes { _ = self.writeBytes($0) }
    }
}
