@testable import ComposeFraming
import Testing

/// `ByteKey`: a key is its bytes, wherever they sit, and the words its
/// equality trusts for short keys are exactly those bytes.
@Suite struct ByteKeyTests {
    /// A key's hash and equality depend on its bytes only, not on where they
    /// sit in the buffer (the hash reads them 8 at a time, unaligned).
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 24, 33])
    func aKeyIsItsBytesWhereverTheySit(length: Int) {
        var random = SystemRandomNumberGenerator()
        let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
        let keys = (0 ..< 9).map { offset in
            var buffer = ByteBuffer(bytes: [UInt8](repeating: 0xAA, count: offset) + bytes + [0x55])
            buffer.moveReaderIndex(forwardBy: offset)
            return ByteKey(buffer.getSlice(at: offset, length: length)!)
        }
        #expect(Set(keys).count == 1 && keys.allSatisfy { $0.hash == keys[0].hash })
        #expect(keys[0].copy() == keys[0] && ByteKey(bytes) == keys[0])
        if length > 0 {
            var other = bytes
            other[length - 1] ^= 1
            #expect(ByteKey(other) != keys[0])
        }
    }

    /// What `ByteKey.==` trusts for a key of 16 bytes or fewer, without the
    /// hash (which alone already tells these apart): its words and length
    /// are its bytes. The words are the bytes in little-endian order, zero
    /// past the end, whether loaded whole or byte by byte; so "a" and "a\0"
    /// have the same words and differ in length, and one bit changed
    /// anywhere changes a word.
    @Test func theWordsAndLengthOfAShortKeyAreItsBytes() {
        for length in 0 ... 16 {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ 0x81) }
            let key = ByteKey(bytes)
            let words = bytes.enumerated().reduce(into: (UInt64(0), UInt64(0))) { words, byte in
                let bits = UInt64(byte.element) << (8 * UInt64(byte.offset % 8))
                if byte.offset < 8 { words.0 |= bits } else { words.1 |= bits }
            }
            #expect(key.words.0 == words.0 && key.words.1 == words.1, "length \(length)")
            for extra in stride(from: 1, through: 16 - length, by: 1) {
                let longer = ByteKey(bytes + [UInt8](repeating: 0, count: extra))
                #expect(longer.words.0 == key.words.0 && longer.words.1 == key.words.1 && longer.bytes.readableBytes != key.bytes.readableBytes && longer != key)
            }
            for index in 0 ..< length {
                for bit in 0 ..< 8 {
                    var other = bytes
                    other[index] ^= 1 << bit
                    let changed = ByteKey(other)
                    #expect(changed.words.0 != key.words.0 || changed.words.1 != key.words.1, "length \(length), byte \(index), bit \(bit)")
                }
            }
        }
    }

    /// Keys longer than 16 bytes are equal by all their bytes (the
    /// comparison past the words), and a stored copy holds only the key's
    /// bytes, not the buffer it came from.
    @Test func longKeysAreComparedByTheirBytesAndACopyIsSmall() {
        let prefix = [UInt8](repeating: 7, count: 16)
        #expect(ByteKey(prefix + [1, 2, 3]) == ByteKey(ByteBuffer(bytes: [0] + prefix + [1, 2, 3]).getSlice(at: 1, length: 19)!))
        #expect(ByteKey(prefix + [1, 2, 3]) != ByteKey(prefix + [1, 2, 4]))
        var big = ByteBuffer(bytes: [UInt8](repeating: 0, count: 100_000) + [9, 9])
        big.moveReaderIndex(forwardBy: 100_000)
        let copy = ByteKey(big).copy()
        #expect(copy == ByteKey([9, 9]) && copy.bytes.storageCapacity < 1024)
    }

    /// Every length from 0 to 40 at every alignment, read where a byte past
    /// the key is outside the allocation (so that a read past the end fails
    /// under `make test-asan`): memory of exactly the key's bytes, at each of
    /// 16 offsets from an aligned start, handed to `ByteKey(_:readingFrom:)`;
    /// and a buffer whose readable bytes end its storage, read with a reader
    /// index past 0, whole and as a slice. Every way of making a key of the
    /// same bytes makes an equal key with an equal hash.
    @Test func everyLengthAtEveryAlignmentReadsOnlyItsBytes() {
        var random = SystemRandomNumberGenerator()
        for length in 0 ... 40 {
            for alignment in 0 ..< 16 {
                let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: alignment + length, alignment: 16)
                defer { memory.deallocate() }
                for index in memory.indices { memory[index] = UInt8.random(in: 0 ... 255, using: &random) }
                let exact = UnsafeRawBufferPointer(rebasing: memory[alignment...])
                let bytes = Array(exact)
                var buffer = ByteBufferAllocator().buffer(capacity: 64)
                buffer.writeBytes([UInt8](repeating: 0xAA, count: 64 - length) + bytes)
                let start = 64 - length
                buffer.moveReaderIndex(to: start)
                #expect(buffer.storageCapacity == 64)
                let slice = buffer.getSlice(at: start, length: length)!
                let keys = [
                    ByteKey(bytes), ByteKey(buffer), ByteKey(slice), ByteKey(slice, readingFrom: exact),
                    buffer.withUnsafeReadableBytes { ByteKey(slice, readingFrom: $0) }, ByteKey(slice).copy(),
                    ByteKey(slice, readingFrom: exact).copy(), ByteKey(ByteBuffer(bytes: bytes)),
                ]
                for (index, key) in keys.enumerated() {
                    let same = key == keys[0] && key.hash == keys[0].hash && key.hashValue == keys[0].hashValue
                    #expect(same && key.words == keys[0].words && key.bytes.readableBytes == length, "length \(length), alignment \(alignment), key \(index)")
                }
            }
        }
        // The whole 64 bytes of a buffer, read at its end and as a slice at every offset.
        var full = ByteBufferAllocator().buffer(capacity: 64)
        full.writeBytes((0 ..< 64).map { UInt8($0) })
        for start in 0 ... 64 {
            let slice = full.getSlice(at: start, length: 64 - start)!
            #expect(ByteKey(slice) == ByteKey(Array(start ..< 64).map { UInt8($0) }))
        }
    }

    /// Bytes that differ make keys that differ, at the edges `==` has: keys
    /// differing in trailing zero bytes (the same words), 16 bytes against
    /// 17, long keys that share their first 16 bytes; and a key's words are
    /// its first 16 bytes at any length. Keys of zeros of every length hash
    /// apart too (the length is part of the hash, not only of `==`).
    @Test func keysDifferWhereTheirBytesDo() {
        var random = SystemRandomNumberGenerator()
        for length in 0 ... 40 {
            let bytes = (0 ..< length).map { _ in UInt8.random(in: 0 ... 3, using: &random) }  // Many zeros.
            let key = ByteKey(bytes)
            let first16 = bytes.prefix(16) + [UInt8](repeating: 0, count: 16 - min(16, length))
            let words = first16.enumerated().reduce(into: (UInt64(0), UInt64(0))) { words, byte in
                let bits = UInt64(byte.element) << (8 * UInt64(byte.offset % 8))
                if byte.offset < 8 { words.0 |= bits } else { words.1 |= bits }
            }
            #expect(key.words.0 == words.0 && key.words.1 == words.1, "length \(length)")
            for extra in 1 ... 9 {
                #expect(ByteKey(bytes + [UInt8](repeating: 0, count: extra)) != key, "length \(length) + \(extra)")
            }
            if length > 0 { #expect(ByteKey(bytes.dropLast()) != key) }
            for index in 0 ..< length {
                var other = bytes
                other[index] ^= 1 << UInt8(index % 8)
                #expect(ByteKey(other) != key, "length \(length), byte \(index)")
                #expect(ByteKey(other) == ByteKey(other).copy())
            }
        }
        let prefix = [UInt8](repeating: 0, count: 16)
        #expect(ByteKey(prefix) != ByteKey(prefix + [0]) && ByteKey(prefix + [0]) == ByteKey(prefix + [0]).copy())
        let zeros = (0 ... 40).map { ByteKey([UInt8](repeating: 0, count: $0)) }
        #expect(Set(zeros).count == 41 && Set(zeros.map(\.hash)).count == 41)
    }

    /// `ByteKey(_:readingFrom:)` given bytes that are not the slice's: of
    /// another length, they are not read and the key is the slice's; of its
    /// length, they are read (and nothing outside them: the memory here is
    /// exactly theirs) and the key hashes as those bytes while holding the
    /// slice: up to 16 bytes it is equal to the key of those bytes (its
    /// words and length are all `==` compares), longer it is equal to no
    /// key made right. Never the slice's key, never a crash.
    @Test func bytesThatAreNotTheSlicesAreReadOnlyWithinThemselves() {
        for length in 0 ... 40 {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
            let slice = ByteBuffer(bytes: [9] + bytes).getSlice(at: 1, length: length)!
            for otherLength in [0, length - 1, length + 1] where otherLength >= 0 {
                let other = UnsafeMutableRawBufferPointer.allocate(byteCount: otherLength, alignment: 1)
                defer { other.deallocate() }
                other.initializeMemory(as: UInt8.self, repeating: 0xEE)
                let key = ByteKey(slice, readingFrom: UnsafeRawBufferPointer(other))
                #expect(key == ByteKey(bytes) && key.hash == ByteKey(bytes).hash, "length \(length), other \(otherLength)")
            }
            #expect(ByteKey(slice, readingFrom: UnsafeRawBufferPointer(start: nil, count: 0)) == ByteKey(bytes))
            let wrong = bytes.map { $0 ^ 0xFF }
            let other = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 1)
            defer { other.deallocate() }
            other.copyBytes(from: wrong)
            let key = ByteKey(slice, readingFrom: UnsafeRawBufferPointer(other))
            #expect(key.bytes == slice && key.bytes.readableBytes == length)
            if length > 0 { #expect(key != ByteKey(bytes)) }
            #expect((key == ByteKey(wrong)) == (length <= 16), "length \(length)")
            #expect(key == key.copy() && key.copy().hash == ByteKey(wrong).hash)
        }
    }

    /// `==` checks the length, the words and (past 16 bytes) the bytes even
    /// when the hashes are equal. The hash collides only by chance, so these
    /// keys are given one hash (`init(bytes:hash:words:)`, with the words of
    /// their real keys): 8 bytes against the same 8 and a zero (the same
    /// words), 16 bytes with other words, 32 bytes that share their first 16.
    @Test func equalHashesAreNotEqualKeys() {
        var random = SystemRandomNumberGenerator()
        func forced(_ bytes: [UInt8], hash: Int) -> ByteKey {
            let real = ByteKey(bytes)
            return ByteKey(bytes: real.bytes, hash: hash, words: real.words)
        }
        for _ in 0 ..< 100 {
            let hash = Int.random(in: .min ... .max, using: &random)
            let bytes = (0 ..< 32).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
            var other = bytes
            other[Int.random(in: 0 ..< 16, using: &random)] ^= 1
            var past = bytes
            past[Int.random(in: 16 ..< 32, using: &random)] ^= 1
            let (short, longer) = (forced(Array(bytes[..<8]), hash: hash), forced(Array(bytes[..<8]) + [0], hash: hash))
            #expect(short.words == longer.words && short != longer && short == forced(Array(bytes[..<8]), hash: hash))
            let (a, b) = (forced(Array(bytes[..<16]), hash: hash), forced(Array(other[..<16]), hash: hash))
            #expect(a.words != b.words && a != b && a == forced(Array(bytes[..<16]), hash: hash))
            let (c, d) = (forced(bytes, hash: hash), forced(past, hash: hash))
            #expect(c.words == d.words && c != d && c == forced(bytes, hash: hash))
        }
    }

    /// Keys of other lengths with the same words ("a" and "a\0": the tail
    /// is zero-padded) hash apart under any seed: the length has a round of
    /// its own, after the words.
    @Test func keysOfOtherLengthsWithTheSameWordsHashApart() {
        for length in 1 ... 15 {
            let bytes = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &+ 1) }
            for seed: UInt64 in [0, 1, .max, 0x1234_5678_9ABC_DEF0] {
                let key = ByteBuffer(bytes: bytes).withUnsafeReadableBytes { ByteKey(ByteBuffer(bytes: bytes), $0, seed: seed) }
                let padded = bytes + [0]
                let longer = ByteBuffer(bytes: padded).withUnsafeReadableBytes { ByteKey(ByteBuffer(bytes: padded), $0, seed: seed) }
                #expect(key.words == longer.words && key.hash != longer.hash, "length \(length), seed \(seed)")
            }
        }
    }

    /// The hash depends on the seed (without it anyone could make keys that
    /// collide): the same bytes under two seeds hash apart, at every length
    /// and 0 (the length's round).
    @Test func theHashDependsOnTheSeed() {
        var random = SystemRandomNumberGenerator()
        for length in 0 ... 40 {
            let buffer = ByteBuffer(bytes: (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &random) })
            let seed = UInt64.random(in: 0 ... .max, using: &random)
            let hashes = buffer.withUnsafeReadableBytes { bytes in [seed, seed ^ 1, seed ^ 1 << 63].map { ByteKey(buffer, bytes, seed: $0).hash } }
            #expect(Set(hashes).count == 3, "length \(length)")
        }
    }
}
