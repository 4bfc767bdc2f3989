public import NIOCore

/// A byte string made to key a dictionary in a hot path: its hash is
/// computed once, when it is made, and its first 16 bytes are kept as two
/// integers, so finding it hashes one `Int` and compares integers, reading
/// no buffer. (`ByteBuffer` is `Hashable` too, but each lookup hashes all
/// its bytes again, and each read of a buffer's memory pays SwiftNIO's
/// exclusivity check; see the Protocols article, "Hot byte loops".)
///
/// ```swift
/// var entries: [ByteKey: [UInt8]] = [:]
/// entries[ByteKey(key).copy()] = Array(value.readableBytesView)  // keep a copy
/// let found = entries[ByteKey(frame)]                           // look up with a slice
/// ```
///
/// A key made from a slice of a read buffer shares its memory: keep
/// ``copy()`` of a key you store, so it holds its own bytes and not the
/// whole buffer.
///
/// The hash takes 8 bytes at a time, each folded in through a 128-bit
/// product with a seed drawn once per process: fast, but not a keyed
/// pseudo-random function as the standard library's SipHash is. The
/// dictionary hashes the result again with its own seeded SipHash, so
/// flooding a bucket takes whole 64-bit collisions of it without knowing
/// the seed (the length is folded in last, in a round of its own, so "a"
/// and "a\0", with the same words, hash apart under every seed). Keys from hostile
/// clients that need SipHash's guarantee can key the dictionary with
/// `ByteBuffer` itself (about 290 instructions more a lookup).
public struct ByteKey: Hashable, Sendable {
    /// The key's bytes (its readable bytes).
    public let bytes: ByteBuffer
    /// The hash of the bytes and their length, under the process's seed.
    @usableFromInline let hash: Int
    /// The first 16 bytes in little-endian order, zero past the end.
    @usableFromInline let words: (UInt64, UInt64)

    /// The seed of every key's hash, drawn once per process (immutable:
    /// keys made anywhere in the process compare and hash alike).
    @usableFromInline static let seed = UInt64.random(in: 0 ... .max)

    /// The key of `bytes`' readable bytes (not copied: see ``copy()``).
    @inlinable public init(_ bytes: ByteBuffer) {
        self = bytes.withUnsafeReadableBytes { ByteKey(bytes, $0, seed: Self.seed) }
    }

    /// The key of `slice`, hashed from `bytes`, its readable bytes, that a
    /// decoder holds already (inside `withUnsafeReadableBytes` of the
    /// buffer `slice` comes from): that spares a second access to the
    /// buffer's memory, about 100 instructions. Bytes of another length
    /// than the slice's are not used (the slice is read instead). Other
    /// bytes of its length are hashed in the slice's place, never a memory
    /// error: the key holds the slice but finds what a key of those bytes
    /// finds if they are 16 or fewer (their words are all it compares), and
    /// nothing if they are more.
    ///
    /// ```swift
    /// let key = ByteKey(buffer.getSlice(at: buffer.readerIndex + start, length: length)!,
    ///                   readingFrom: UnsafeRawBufferPointer(rebasing: bytes[start ..< start + length]))
    /// ```
    @inlinable @inline(__always) public init(_ slice: ByteBuffer, readingFrom bytes: UnsafeRawBufferPointer) {
        guard bytes.count == slice.readableBytes else { self.init(slice); return }
        self.init(slice, bytes, seed: Self.seed)
    }

    /// A key of `bytes` whose hash and words are known (tests force hashes with it).
    init(bytes: ByteBuffer, hash: Int, words: (UInt64, UInt64)) {
        (self.bytes, self.hash, self.words) = (bytes, hash, words)
    }

    /// The key of these bytes, in a buffer of their own.
    public init(_ bytes: some Sequence<UInt8>) {
        self.init(ByteBuffer(bytes: bytes))
    }

    /// `buffer`'s key, from `bytes`, its readable bytes, under `seed`.
    @inlinable init(_ buffer: ByteBuffer, _ bytes: UnsafeRawBufferPointer, seed: UInt64) {
        var (hash, words, start) = (UInt64(0), (UInt64(0), UInt64(0)), 0)
        while start < bytes.count {
            var word: UInt64 = 0
            if start + 8 <= bytes.count {
                // In bounds: start + 8 <= count; loadUnaligned has no alignment needs.
                word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            } else {
                for index in (start ..< bytes.count).reversed() { word = word << 8 | UInt64(bytes[index]) }
            }
            if start < 16 { words = start == 0 ? (word, 0) : (words.0, word) }
            let product = (hash ^ word ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            (hash, start) = (product.high ^ product.low, start + 8)
        }
        // The length last, through a round of its own: keys of other lengths
        // with the same words then collide only as the seed makes them.
        let product = (hash ^ UInt64(bytes.count) ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        hash = product.high ^ product.low
        (self.bytes, self.hash, self.words) = (buffer, Int(truncatingIfNeeded: hash), words)
    }

    /// Equal hashes, lengths and first 16 bytes; then, for keys longer
    /// than 16 bytes, the bytes.
    @inlinable public static func == (lhs: ByteKey, rhs: ByteKey) -> Bool {
        lhs.hash == rhs.hash && lhs.words == rhs.words && lhs.bytes.readableBytes == rhs.bytes.readableBytes
            && (lhs.bytes.readableBytes <= 16 || lhs.bytes == rhs.bytes)
    }

    /// Feeds the hash computed when the key was made.
    @inlinable public func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The key with its bytes in storage of their own, as large as they
    /// are (not a slice of a read buffer): the key to store.
    public func copy() -> ByteKey {
        ByteKey(bytes: ByteBufferAllocator().buffer(buffer: bytes), hash: hash, words: words)
    }
}
