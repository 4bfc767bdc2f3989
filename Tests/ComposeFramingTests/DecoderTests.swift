import ComposeFraming
import ComposeTesting
import Testing

/// Each built-in decoder on buffers written by hand: what it takes, what it
/// leaves, what it throws.
struct DecoderTests {
    /// Every frame `decoder` makes of `text` at once, then at end of
    /// input, as byte arrays; and the error it threw, if any.
    static func decodeAll<D: FrameDecoder>(_ decoder: D, _ bytes: [UInt8]) -> (frames: [D.Frame], error: (any Error)?, left: Int) {
        var decoder = decoder
        var buffer = ByteBuffer(bytes: bytes)
        var frames: [D.Frame] = []
        do {
            while let frame = try decoder.decode(buffer: &buffer) { frames.append(frame) }
            while let frame = try decoder.decodeLast(buffer: &buffer) { frames.append(frame) }
        } catch {
            return (frames, error, buffer.readableBytes)
        }
        return (frames, nil, buffer.readableBytes)
    }

    static func text(_ frames: [ByteBuffer]) -> [String] { frames.map { String(buffer: $0) } }

    // MARK: Lines

    @Test func linesEndWithLFOrCRLFAndTheLastNeedsNone() {
        let result = Self.decodeAll(LineDecoder(), Array("one\ntwo\r\n\nfour\r".utf8))
        #expect(Self.text(result.frames) == ["one", "two", "", "four"])
        #expect(result.error == nil)
        #expect(result.left == 0)
    }

    @Test func anIncompleteLineWaitsAndIsSearchedOnce() throws {
        var decoder = LineDecoder()
        var buffer = ByteBuffer(string: "abc")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.readableBytes == 3)
        buffer.writeString("def\r")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        buffer.writeString("\nnext")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "abcdef")
        #expect(String(buffer: buffer) == "next")
    }

    @Test func aLineOverTheLimitThrowsAsSoonAsItIsKnown() throws {
        var decoder = LineDecoder(maximumLength: 4)
        var buffer = ByteBuffer(string: "1234\n12345")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "1234")
        #expect(throws: FrameTooLarge(length: 5, limit: 4, isAnnounced: false)) { try decoder.decode(buffer: &buffer) }
        // "1234\r" may still end "1234\r\n": not too long yet.
        var waiting = LineDecoder(maximumLength: 4)
        var partial = ByteBuffer(string: "1234\r")
        #expect(try waiting.decode(buffer: &partial) == nil)
        partial.writeString("\n")
        #expect(try waiting.decode(buffer: &partial).map { String(buffer: $0) } == "1234")
    }

    @Test func textLinesAreStringsWithInvalidUTF8Repaired() {
        let result = Self.decodeAll(TextLineDecoder(), [0x68, 0x69, 0x0A, 0xFF, 0x0A])
        #expect(result.frames == ["hi", "\u{FFFD}"])
    }

    @Test func aLinesMaximumFrameCountsItsTerminator() {
        #expect(LineDecoder(maximumLength: 10).maximumFrameLength == 12)
        #expect(LineDecoder(maximumLength: .unlimited).maximumFrameLength == .max)
        #expect(TextLineDecoder().maximumLength == .default)
    }

    // MARK: Length-prefixed

    @Test(arguments: LengthFieldWidth.allCases)
    func lengthPrefixedFramesInEitherByteOrder(width: LengthFieldWidth) throws {
        for endianness in [Endianness.big, .little] {
            let encoder = LengthPrefixedEncoder(lengthField: width, endianness: endianness, maximumLength: 300)
            var buffer = ByteBuffer()
            for text in ["", "a", String(repeating: "x", count: 255)] {
                try encoder.encode(ByteBuffer(string: text), into: &buffer)
            }
            #expect(buffer.readableBytes == 3 * width.rawValue + 256)
            let result = Self.decodeAll(LengthPrefixedDecoder(lengthField: width, endianness: endianness, maximumLength: 300), Array(buffer.readableBytesView))
            #expect(Self.text(result.frames) == ["", "a", String(repeating: "x", count: 255)])
            #expect(result.error == nil)
        }
    }

    @Test func aLengthOverTheMaximumThrowsBeforeTheFrameArrives() {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt32(70_000))
        buffer.writeString("only the start")
        var decoder = LengthPrefixedDecoder(maximumLength: 65_536)
        #expect(throws: FrameTooLarge(length: 70_000, limit: 65_536, isAnnounced: true)) { try decoder.decode(buffer: &buffer) }
    }

    @Test func anIncompleteLengthPrefixedFrameIsLeftWhole() throws {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt16(5), endianness: .little)
        buffer.writeString("abc")
        var decoder = LengthPrefixedDecoder(lengthField: .twoBytes, endianness: .little)
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(buffer.readableBytes == 5)
        #expect(Self.decodeAll(decoder, Array(buffer.readableBytesView)).frames.isEmpty)
    }

    @Test func theMaximumIsWhatTheFieldCanSay() throws {
        #expect(LengthPrefixedDecoder(lengthField: .oneByte, maximumLength: 1000).maximumLength == 255)
        #expect(LengthPrefixedDecoder(lengthField: .twoBytes).maximumFrameLength == 65_535 + 2)
        let encoder = LengthPrefixedEncoder(lengthField: .oneByte)
        var buffer = ByteBuffer()
        #expect(throws: FrameTooLarge(length: 256, limit: 255, isAnnounced: true)) {
            try encoder.encode(ByteBuffer(repeating: 1, count: 256), into: &buffer)
        }
        #expect(buffer.readableBytes == 0)
    }

    @Test func anEightByteLengthPastIntMaxIsTooLarge() {
        var buffer = ByteBuffer()
        buffer.writeInteger(UInt64.max)
        var decoder = LengthPrefixedDecoder(lengthField: .eightBytes)
        #expect(throws: FrameTooLarge(length: .max, limit: 1 << 20, isAnnounced: true)) { try decoder.decode(buffer: &buffer) }
    }

    // MARK: Fixed length

    @Test func fixedLengthFramesDropARemainder() {
        let result = Self.decodeAll(FixedLengthDecoder(length: 3), Array("abcdefgh".utf8))
        #expect(Self.text(result.frames) == ["abc", "def"])
        #expect(result.left == 2)
        #expect(FixedLengthDecoder(length: 0).length == 1)
    }

    // MARK: Delimiter

    @MainActor
    @Test func multiByteDelimitersEvenCutInTwo() throws {
        var decoder = DelimiterDecoder(delimiter: Array("\r\n\r\n".utf8), maximumLength: 100)
        var buffer = ByteBuffer(string: "head one\r\n\r")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        buffer.writeString("\n\r\nhead two\r\n\r\ntail")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "head one")
        #expect(try decoder.decode(buffer: &buffer).map { String(buffer: $0) } == "\r\nhead two")
        #expect(try decoder.decode(buffer: &buffer) == nil)
        #expect(try decoder.decodeLast(buffer: &buffer).map { String(buffer: $0) } == "tail")
        #expect(try decoder.decodeLast(buffer: &buffer) == nil)
    }

    @MainActor
    @Test func aDelimitedFrameOverTheMaximumThrows() {
        var decoder = DelimiterDecoder(delimiter: [0], maximumLength: 3)
        var buffer = ByteBuffer(bytes: [1, 2, 3, 0, 1, 2, 3, 4])
        #expect(throws: Never.self) { try decoder.decode(buffer: &buffer) }
        #expect(throws: FrameTooLarge(length: 4, limit: 3, isAnnounced: false)) { try decoder.decode(buffer: &buffer) }
    }

    @MainActor
    @Test func anEmptyDelimiterIsReportedAndIsNUL() {
        let diagnostics = Diagnostics.collectUnattached {
            #expect(DelimiterDecoder(delimiter: []).delimiter == [0])
        }
        #expect(diagnostics.map(\.code) == [.invalidDelimiter])
    }

    // MARK: Search and encoders

    @Test func firstIndexSearchesTheReadableBytesOnly() {
        var buffer = ByteBuffer(string: "a\nb\nc")
        #expect(buffer.firstIndex(of: UInt8(ascii: "\n")) == 1)
        buffer.moveReaderIndex(forwardBy: 2)
        #expect(buffer.firstIndex(of: UInt8(ascii: "\n")) == 3)
        #expect(buffer.firstIndex(of: UInt8(ascii: "\n"), from: 4) == nil)
        #expect(buffer.firstIndex(of: UInt8(ascii: "a")) == nil)
        #expect(buffer.firstIndex(of: UInt8(ascii: "c"), from: 100) == nil)
    }

    @MainActor
    @Test func aChunkBecomesABufferByOneCopy() throws {
        let app = TestApp(root: ChunkKeeper())
        let keeper = try #require(app.root(as: ChunkKeeper.self))
        let peer = try app.connect(port: 7300)
        peer.write("first")
        peer.write([0, 13, 10])
        #expect(keeper.log.entries == ["first", "0,13,10"])
    }

    @Test func lineEncoderEndsWithLFOrCRLF() {
        var buffer = ByteBuffer()
        LineEncoder().encode("one", into: &buffer)
        LineEncoder(terminator: .crlf).encode("two", into: &buffer)
        #expect(String(buffer: buffer) == "one\ntwo\r\n")
    }

    @Test func tooLargeSaysWhatWasSeen() {
        #expect(FrameTooLarge(length: 9, limit: 4, isAnnounced: true).description == "a frame announcing 9 bytes, more than the maximum of 4")
        #expect(FrameTooLarge(length: 9, limit: 4, isAnnounced: false).seen == "a frame of at least 9 bytes")
    }
}

/// Keeps each chunk a connection receives as a `ByteBuffer`.
struct ChunkKeeper: Component {
    let listener = TCPServer(port: 7300)
    let clients = InstanceComponent<ChunkKeeperClient>()
    let log = Log()
    var observers: Void {
        listener += { connection in clients.add { ChunkKeeperClient(connection: connection, log: log) } }
    }
}

struct ChunkKeeperClient: Component {
    let connection: TCPConnection
    let log: Log
    var observers: Void {
        connection += { chunk in
            let buffer = ByteBuffer(chunk)
            log.entries.append(buffer.readableBytes == 5 ? String(buffer: buffer) : buffer.readableBytesView.map(String.init).joined(separator: ","))
        }
    }
}
