@testable import ComposeApp
@testable import ComposeFraming
import PropertyBased
import Testing

/// Each built-in decoder, through the real input buffer and frame delivery,
/// against a simple reference decoder of the whole input: random chunk
/// boundaries, frame sizes around the maximum, and a sink that fills and
/// drains at random points (so the delivery pauses mid-buffer and
/// resumes). Same frames, same failure, and never more than the maximum
/// frame plus one read buffered.
///
/// PropertyBased seeds each run and prints the seed of a failing case
/// (`.fixedSeed("…")` on the test replays it).
@MainActor
@Suite struct DecoderPropertyTests {
    /// The reference's answer: the frames, and whether a frame too large
    /// ended the stream after them.
    struct Expected: Equatable, CustomStringConvertible {
        var frames: [[UInt8]]
        var tooLarge = false
        var description: String { "\(frames.map { String(decoding: $0, as: UTF8.self) })\(tooLarge ? " then frameTooLarge" : "")" }
    }

    static func check(
        _ got: (frames: [ByteBuffer], failure: LoopError?, mostBuffered: Int, largestChunk: Int),
        _ expected: Expected, maximumFrameLength: Int, _ comment: Comment
    ) {
        let frames = got.frames.map { Array($0.readableBytesView) }
        #expect(Expected(frames: frames, tooLarge: got.failure?.kind == .frameTooLarge) == expected, comment)
        #expect(got.failure == nil || got.failure?.kind == .frameTooLarge, comment)
        #expect(got.mostBuffered <= maximumFrameLength + got.largestChunk, comment)
    }

    static let chunks = Gen.int(in: 1...9).array(of: 1...12)
    /// Frames until the sink is full (0: never full), cycled.
    static let fullness = Gen.int(in: 0...4).array(of: 1...6)

    // MARK: Lines

    /// Lines whose lengths are near `limit`; a `\r` now and then inside, or
    /// before the `\n`.
    static func lineStream(_ specs: [(offset: Int, carriageReturn: Bool, short: Bool)], limit: Int, lastTerminated: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, spec) in specs.enumerated() {
            let length = spec.short ? limit / 2 : max(0, limit + spec.offset)
            for position in 0..<length {
                bytes.append((index * 7 + position) % 11 == 5 ? UInt8(ascii: "\r") : UInt8(ascii: "a") + UInt8((index + position) % 26))
            }
            if spec.carriageReturn { bytes.append(UInt8(ascii: "\r")) }
            if index < specs.count - 1 || lastTerminated { bytes.append(UInt8(ascii: "\n")) }
        }
        return bytes
    }

    static func referenceLines(_ bytes: [UInt8], limit: Int) -> Expected {
        var expected = Expected(frames: [])
        var segments = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if segments.last?.isEmpty == true { segments.removeLast() }
        for segment in segments {
            var content = Array(segment)
            if content.last == UInt8(ascii: "\r") { content.removeLast() }
            if content.count > limit {
                expected.tooLarge = true
                break
            }
            expected.frames.append(content)
        }
        return expected
    }

    static let lineSpecs = zip(Gen.int(in: -3...2), Gen.bool(0.4), Gen.bool(0.15))
        .map { offset, carriageReturn, short in (offset: offset, carriageReturn: carriageReturn, short: short) }
        .array(of: 0...10)

    @Test func linesAsTheReferenceSplitsThem() async {
        await propertyCheck(
            count: 1500, input: Gen.int(in: 1...20), Self.lineSpecs, Self.chunks, Self.fullness, Gen.bool()
        ) { limit, specs, chunks, fullness, lastTerminated in
            let bytes = Self.lineStream(specs, limit: limit, lastTerminated: lastTerminated)
            let decoder = LineDecoder(maximumLength: .bytes(limit))
            let got = FrameHarness.run(decoder, bytes, chunks: chunks, fullAfter: fullness)
            Self.check(got, Self.referenceLines(bytes, limit: limit), maximumFrameLength: decoder.maximumFrameLength,
                       "limit \(limit), \(specs.count) lines, chunks \(chunks), full after \(fullness)")
        }
    }

    @Test func textLinesAsTheReferenceSplitsThem() async {
        await propertyCheck(count: 300, input: Gen.int(in: 1...20), Self.lineSpecs, Self.chunks) { limit, specs, chunks in
            let bytes = Self.lineStream(specs, limit: limit, lastTerminated: false)
            let got = FrameHarness.run(TextLineDecoder(maximumLength: .bytes(limit)), bytes, chunks: chunks, fullAfter: [0])
            let expected = Self.referenceLines(bytes, limit: limit)
            #expect(got.frames == expected.frames.map { String(decoding: $0, as: UTF8.self) })
            #expect((got.failure?.kind == .frameTooLarge) == expected.tooLarge)
        }
    }

    // MARK: Length-prefixed

    @Test func lengthPrefixedAsTheReferenceReadsThem() async {
        await propertyCheck(
            count: 1500,
            input: Gen.int(in: 0...20), Gen.int(in: 0...7), Gen.int(in: -3...1).array(of: 0...8), Self.chunks, Self.fullness
        ) { maximum, shape, offsets, chunks, fullness in
            let width = LengthFieldWidth.allCases[shape % 4]
            let endianness: Endianness = shape < 4 ? .big : .little
            var bytes: [UInt8] = []
            for (index, offset) in offsets.enumerated() {
                let length = max(0, maximum + offset)
                var header = ByteBuffer()
                switch width {
                case .oneByte: header.writeInteger(UInt8(length), endianness: endianness)
                case .twoBytes: header.writeInteger(UInt16(length), endianness: endianness)
                case .fourBytes: header.writeInteger(UInt32(length), endianness: endianness)
                case .eightBytes: header.writeInteger(UInt64(length), endianness: endianness)
                }
                bytes += header.readableBytesView
                bytes += (0..<length).map { UInt8(truncatingIfNeeded: index * 31 + $0) }
            }
            // Now and then a stream cut short.
            if shape == 3, !bytes.isEmpty { bytes.removeLast() }
            // The reference: one frame after another, the whole input at once.
            var expected = Expected(frames: [])
            var position = 0
            while bytes.count - position >= width.rawValue {
                let length = width.length(at: position, of: ByteBuffer(bytes: bytes), endianness: endianness)!
                if length > maximum {
                    expected.tooLarge = true
                    break
                }
                guard bytes.count - position - width.rawValue >= length else { break }
                expected.frames.append(Array(bytes[(position + width.rawValue)..<(position + width.rawValue + length)]))
                position += width.rawValue + length
            }
            let decoder = LengthPrefixedDecoder(lengthField: width, endianness: endianness, maximumLength: maximum)
            Self.check(FrameHarness.run(decoder, bytes, chunks: chunks, fullAfter: fullness), expected,
                       maximumFrameLength: decoder.maximumFrameLength, "\(width) \(endianness) max \(maximum), offsets \(offsets), chunks \(chunks)")
        }
    }

    // MARK: Fixed length

    @Test func fixedLengthAsTheReferenceCutsThem() async {
        await propertyCheck(count: 1000, input: Gen.int(in: 1...8), Gen.int(in: 0...60), Self.chunks, Self.fullness) { length, count, chunks, fullness in
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
            var expected = Expected(frames: [])
            var position = 0
            while bytes.count - position >= length {
                expected.frames.append(Array(bytes[position..<(position + length)]))
                position += length
            }
            let decoder = FixedLengthDecoder(length: length)
            Self.check(FrameHarness.run(decoder, bytes, chunks: chunks, fullAfter: fullness), expected,
                       maximumFrameLength: length, "length \(length), \(count) bytes, chunks \(chunks)")
        }
    }

    // MARK: Delimiter

    @Test func delimitedAsTheReferenceSplitsThem() async {
        // Bytes from a small alphabet, so delimiters (even overlapping
        // ones, [1, 1]) and partial delimiters are everywhere.
        let delimiters: [[UInt8]] = [[0], [1, 2], [1, 1], [2, 1, 2]]
        await propertyCheck(
            count: 1500,
            input: Gen.int(in: 0...3), Gen.int(in: 0...12), Gen.int(in: 0...2).array(of: 0...40), Self.chunks, Self.fullness
        ) { which, maximum, bytes, chunks, fullness in
            let delimiter = delimiters[which]
            let input = bytes.map(UInt8.init)
            var expected = Expected(frames: [])
            var start = 0
            var position = 0
            var ended = false
            while position + delimiter.count <= input.count {
                guard Array(input[position..<(position + delimiter.count)]) == delimiter else {
                    position += 1
                    continue
                }
                if position - start > maximum {
                    expected.tooLarge = true
                    ended = true
                    break
                }
                expected.frames.append(Array(input[start..<position]))
                position += delimiter.count
                start = position
            }
            if !ended, start < input.count {
                if input.count - start > maximum {
                    expected.tooLarge = true
                } else {
                    expected.frames.append(Array(input[start...]))
                }
            }
            let decoder = DelimiterDecoder(delimiter: delimiter, maximumLength: maximum)
            Self.check(FrameHarness.run(decoder, input, chunks: chunks, fullAfter: fullness), expected,
                       maximumFrameLength: decoder.maximumFrameLength, "delimiter \(delimiter) max \(maximum) input \(input) chunks \(chunks)")
        }
    }
}
