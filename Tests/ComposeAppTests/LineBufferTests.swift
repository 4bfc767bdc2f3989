@testable import ComposeApp
import PropertyBased
import Testing

/// The line splitter against a reference splitter, on random streams cut at
/// random places, with lines just under, at and just over the limit.
///
/// PropertyBased seeds each run and prints the seed of a failing case
/// (`.fixedSeed("…")` on the test replays it).
struct LineBufferTests {
    /// One line of a generated stream.
    struct LineSpec: Sendable, CustomStringConvertible {
        /// Bytes before the newline (a `\r` included only when it is one of
        /// the content bytes).
        var length: Int
        /// Whether `\r\n` ends it instead of `\n`.
        var carriageReturn: Bool
        var description: String { "\(length)\(carriageReturn ? "+CR" : "")" }
    }

    /// The stream: the lines, whether the last one has its newline.
    static func stream(_ lines: [LineSpec], lastTerminated: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for (index, line) in lines.enumerated() {
            for position in 0..<line.length {
                // Now and then a `\r` inside a line (or at its end), which
                // stays part of it unless a `\n` follows it.
                bytes.append((index * 7 + position) % 11 == 5 ? UInt8(ascii: "\r") : UInt8(ascii: "a") + UInt8((index + position) % 26))
            }
            if line.carriageReturn { bytes.append(UInt8(ascii: "\r")) }
            if index < lines.count - 1 || lastTerminated { bytes.append(UInt8(ascii: "\n")) }
        }
        return bytes
    }

    /// The obvious splitter: the whole stream at once.
    static func reference(_ bytes: [UInt8], limit: Int?, overflow: LineBuffer.Overflow) -> [LineBuffer.Piece] {
        var pieces: [LineBuffer.Piece] = []
        var segments = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The bytes after the last newline: a line only if there are some.
        if segments.last?.isEmpty == true { segments.removeLast() }
        for segment in segments {
            var content = segment
            if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
            if let limit, content.count > limit {
                pieces.append(.tooLong)
                if overflow == .stop { break }
            } else {
                pieces.append(.line(String(decoding: content, as: UTF8.self)))
            }
        }
        return pieces
    }

    /// Feeds `bytes` in chunks of the given sizes (cycled), then finishes.
    static func split(
        _ bytes: [UInt8], chunks: [Int], limit: Int?, overflow: LineBuffer.Overflow
    ) -> (pieces: [LineBuffer.Piece], maximumBuffered: Int, examined: Int) {
        var buffer = LineBuffer(limit: limit.map { .bytes($0) } ?? .unlimited, overflow: overflow)
        var pieces: [LineBuffer.Piece] = []
        var maximumBuffered = 0
        var start = 0
        var chunk = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunks[chunk % chunks.count])
            chunk += 1
            bytes[start..<end].withUnsafeBytes { pieces += buffer.append($0) }
            maximumBuffered = max(maximumBuffered, buffer.bufferedBytes)
            start = end
        }
        if let last = buffer.finish() { pieces.append(.line(last)) }
        return (pieces, maximumBuffered, buffer.bytesExamined)
    }

    static let lineSpecs = zip(Gen.int(in: -3...2), Gen.bool(0.4), Gen.int(in: 0...5))
        .map { offset, carriageReturn, shortness in (offset, carriageReturn, shortness) }
        .array(of: 0...10)

    @Test func sameLinesAsTheReferenceSplitter() async {
        await propertyCheck(
            count: 4000,
            input: Gen.int(in: 1...20), Self.lineSpecs, Gen.int(in: 1...9).array(of: 1...12), Gen.int(in: 0...3)
        ) { limit, specs, chunks, mode in
            // Lengths around the limit (just under, at, just over), and
            // now and then a short line.
            let lines = specs.map { offset, carriageReturn, shortness in
                LineSpec(length: shortness == 0 ? limit / 2 : max(0, limit + offset), carriageReturn: carriageReturn)
            }
            let bytes = Self.stream(lines, lastTerminated: mode & 1 == 0)
            let overflow: LineBuffer.Overflow = mode & 2 == 0 ? .skipLine : .stop
            let result = Self.split(bytes, chunks: chunks, limit: limit, overflow: overflow)
            #expect(result.pieces == Self.reference(bytes, limit: limit, overflow: overflow), "lines \(lines), chunks \(chunks)")
            // Never more than the limit (and a `\r` that may end the line).
            #expect(result.maximumBuffered <= limit + 1)
            // Each byte scanned once and copied at most once.
            #expect(result.examined <= 2 * bytes.count)
        }
    }

    @Test func unlimitedSplitsLikeTheReference() async {
        await propertyCheck(count: 1000, input: Self.lineSpecs, Gen.int(in: 1...9).array(of: 1...12)) { specs, chunks in
            let lines = specs.map { offset, carriageReturn, _ in LineSpec(length: 40 + offset * 13, carriageReturn: carriageReturn) }
            let bytes = Self.stream(lines, lastTerminated: false)
            let result = Self.split(bytes, chunks: chunks, limit: nil, overflow: .stop)
            #expect(result.pieces == Self.reference(bytes, limit: nil, overflow: .stop))
        }
    }

    @Test func splittingAFewPiecesAtATimeGivesTheSameLines() async {
        // What a line budget does: stop after a few pieces, hand the bytes
        // not consumed to the next call.
        await propertyCheck(
            count: 2000,
            input: Gen.int(in: 1...20), Self.lineSpecs, Gen.int(in: 1...9).array(of: 1...12), Gen.int(in: 0...3).array(of: 1...5), Gen.int(in: 0...3)
        ) { limit, specs, chunks, someMaxima, mode in
            // 0 now and then (a budget spent), and never only 0.
            let maxima = someMaxima + [1]
            let lines = specs.map { offset, carriageReturn, shortness in
                LineSpec(length: shortness == 0 ? limit / 2 : max(0, limit + offset), carriageReturn: carriageReturn)
            }
            let bytes = Self.stream(lines, lastTerminated: mode & 1 == 0)
            let overflow: LineBuffer.Overflow = mode & 2 == 0 ? .skipLine : .stop
            var buffer = LineBuffer(limit: .bytes(limit), overflow: overflow)
            var pieces: [LineBuffer.Piece] = []
            var start = 0
            var call = 0
            while start < bytes.count, call < 100 * (bytes.count + 1) {
                let end = min(bytes.count, start + chunks[call % chunks.count])
                let maximum = maxima[call % maxima.count]
                call += 1
                let (got, consumed) = bytes[start..<end].withUnsafeBytes { buffer.append($0, upTo: maximum) }
                #expect(got.count <= maximum)
                #expect(consumed <= end - start)
                pieces += got
                start += consumed
            }
            if let last = buffer.finish() { pieces.append(.line(last)) }
            #expect(start == bytes.count, "stuck: lines \(lines), chunks \(chunks), maxima \(maxima)")
            #expect(pieces == Self.reference(bytes, limit: limit, overflow: overflow), "lines \(lines), chunks \(chunks), maxima \(maxima)")
        }
    }

    /// The work done (bytes scanned plus bytes copied) for `mebibytes`
    /// without a newline, fed in 100-byte chunks.
    static func workWithoutNewline(mebibytes: Int, limit: LineLengthLimit, overflow: LineBuffer.Overflow) -> Int {
        var buffer = LineBuffer(limit: limit, overflow: overflow)
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 100)
        chunk.withUnsafeBytes { chunk in
            for _ in 0..<(mebibytes << 20) / chunk.count { _ = buffer.append(chunk) }
        }
        return buffer.bytesExamined
    }

    /// Counted, not timed: the old splitter rescanned the whole pending line
    /// for every chunk, so 4x the bytes cost 16x the work.
    @Test(arguments: [(LineLengthLimit.unlimited, LineBuffer.Overflow.stop), (.default, .skipLine)])
    func workGrowsLinearly(limit: LineLengthLimit, overflow: LineBuffer.Overflow) {
        let one = Self.workWithoutNewline(mebibytes: 1, limit: limit, overflow: overflow)
        let four = Self.workWithoutNewline(mebibytes: 4, limit: limit, overflow: overflow)
        #expect(one >= 1 << 20)
        #expect(Double(four) <= 4.5 * Double(one), "\(one) bytes examined for 1 MiB, \(four) for 4 MiB")
    }

    @Test func aStoppedSplitterIgnoresTheRest() {
        var buffer = LineBuffer(limit: .bytes(4), overflow: .stop)
        let pieces = Array("ok\ntoo long\nnext\n".utf8).withUnsafeBytes { buffer.append($0) }
        #expect(pieces == [.line("ok"), .tooLong])
        #expect(Array("more\n".utf8).withUnsafeBytes { buffer.append($0) } == [])
        #expect(buffer.bufferedBytes == 0)
    }

    @Test func limitSpelling() {
        #expect(LineLengthLimit.default.bytes == 65_536)
        #expect(LineLengthLimit.unlimited.bytes == nil)
        #expect((4096 as LineLengthLimit) == .bytes(4096))
        #expect(LineLengthLimit.kibibytes(4) == .bytes(4096))
        #expect(LineLengthLimit.bytes(0).bytes == 1)
        #expect("\(LineLengthLimit.kibibytes(1))" == "1024 bytes")
    }

    @Test func errorNamesTheResourceAndTheLimit() {
        let error = LoopError.lineTooLong("TCPConnection.lines", limit: 4096, context: "127.0.0.1:5000")
        #expect(error.kind == .lineTooLong)
        #expect("\(error.kind)" == "lineTooLong")
        #expect("\(error)".contains("TCPConnection.lines"))
        #expect("\(error)".contains("4096 bytes"))
        #expect("\(error)".contains("127.0.0.1:5000"))
        #expect("\(error)".contains("maximumLineLength"))
    }
}
