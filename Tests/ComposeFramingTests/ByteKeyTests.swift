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
}
