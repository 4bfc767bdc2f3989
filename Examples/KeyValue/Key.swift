import ComposeFraming

/// A key's bytes with what the decoder computed while it read them: a hash
/// and, for a key of up to 16 bytes, the bytes themselves as two words.
/// Finding a key then hashes one `Int` and compares integers, reading no
/// buffer (each read of a `ByteBuffer`'s memory pays SwiftNIO's dynamic
/// exclusivity check, about 90 instructions).
///
/// The hash takes 8 bytes at a time, each folded in through a 128-bit
/// product with the store's seed, drawn once per process: fast, but not a
/// keyed pseudo-random function as the standard library's SipHash is. The
/// dictionary hashes it again with SipHash, so flooding a bucket takes
/// whole 64-bit collisions of it without knowing the seed; a server facing
/// hostile clients could hash the bytes with `Hasher` here instead (about
/// 290 instructions more per GET, measured with callgrind).
struct Key: Hashable {
    private(set) var bytes: ByteBuffer
    let hash: Int, words: (UInt64, UInt64)

    init(_ buffer: ByteBuffer, seed: UInt64) {
        self = buffer.withUnsafeReadableBytes { Key(buffer, $0, seed: seed) }
    }

    /// `buffer`'s key, from its readable bytes `bytes`, read already.
    init(_ buffer: ByteBuffer, _ bytes: UnsafeRawBufferPointer, seed: UInt64) {
        var (hash, words, start) = (UInt64(bytes.count), (UInt64(0), UInt64(0)), 0)
        while start < bytes.count {
            var word: UInt64 = 0
            if start + 8 <= bytes.count {
                word = bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            } else {
                for index in (start ..< bytes.count).reversed() { word = word << 8 | UInt64(bytes[index]) }
            }
            if start < 16 { (words.0, words.1) = start == 0 ? (word, 0) : (words.0, word) }
            let product = (hash ^ word ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
            (hash, start) = (product.high ^ product.low, start + 8)
        }
        (self.bytes, self.hash, self.words) = (buffer, Int(truncatingIfNeeded: hash), words)
    }

    /// Equal hashes and first 16 bytes, then (for a longer key) the bytes.
    static func == (lhs: Key, rhs: Key) -> Bool {
        lhs.hash == rhs.hash && lhs.words == rhs.words && lhs.bytes.readableBytes == rhs.bytes.readableBytes
            && (lhs.bytes.readableBytes <= 16 || lhs.bytes == rhs.bytes)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    /// The key with its bytes in their own storage (not a slice of the read buffer).
    func copy() -> Key {
        var key = self
        key.bytes = bytes.copy()
        return key
    }
}
