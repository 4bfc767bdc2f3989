#if canImport(Glibc)
import Glibc
#endif

/// Splits a byte stream into lines (`\n`, with an optional `\r` before it),
/// with a maximum line length.
///
/// Linear: each byte received is scanned once (`memchr`) and copied at most
/// once, into `partial`, which holds only the unterminated line at the end
/// of the bytes received so far. A complete line inside one chunk is
/// decoded straight from the chunk. So the bytes kept are at most the limit
/// (plus a `\r` that may end the line), and a chunk is never rescanned.
///
/// Over the limit: a ``Piece/tooLong`` piece, then, by ``Overflow``, either
/// nothing more (``Overflow/stop``) or the rest of the over-long line is
/// skipped up to its newline and splitting goes on (``Overflow/skipLine``).
struct LineBuffer {
    /// What splitting produced, in order.
    enum Piece: Equatable {
        /// A complete line, without its `\n` or `\r\n`.
        case line(String)
        /// A line longer than the limit (dropped).
        case tooLong
    }

    /// What follows a ``Piece/tooLong``.
    enum Overflow {
        /// Nothing more is split (the resource closes).
        case stop
        /// The over-long line is skipped up to its newline; the next lines
        /// are split as usual.
        case skipLine
    }

    /// The longest line accepted in bytes (without `\n` or `\r\n`), or
    /// `nil` for no limit. Can change between appends.
    var limit: Int?
    let overflow: Overflow
    /// The unterminated line so far: never more than `limit + 1` bytes.
    private var partial: [UInt8] = []
    /// Skipping the rest of an over-long line (``Overflow/skipLine``).
    private var isSkipping = false
    /// A line was too long and ``overflow`` is ``Overflow/stop``.
    private(set) var isStopped = false
    /// Bytes scanned for a newline plus bytes copied: the work done, which
    /// tests compare with the bytes received to check splitting is linear.
    private(set) var bytesExamined = 0
    /// The bytes kept for the unterminated line.
    var bufferedBytes: Int { partial.count }

    /// `partial` keeps its storage across lines up to this capacity.
    private static let keptCapacity = 8 * 1024
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    init(limit: LineLengthLimit = .default, overflow: Overflow = .skipLine) {
        self.limit = limit.bytes
        self.overflow = overflow
    }

    /// Splits `bytes`, which follow the bytes of earlier calls: returns the
    /// lines they complete and the over-long lines they reveal, in order.
    mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Piece] {
        append(bytes, upTo: .max).pieces
    }

    /// Splits `bytes` as ``append(_:)`` does, but stops after `maximum`
    /// pieces: returns them and how many bytes of `bytes` they consumed.
    /// The bytes after `consumed` were not looked at; the caller hands
    /// them to a later call (a line budget, see ``LineDelivery``). When
    /// splitting stops (``Overflow/stop``), every byte counts as consumed.
    mutating func append(_ bytes: UnsafeRawBufferPointer, upTo maximum: Int) -> (pieces: [Piece], consumed: Int) {
        guard !isStopped, let base = bytes.baseAddress, bytes.count > 0 else { return ([], bytes.count) }
        var pieces: [Piece] = []
        let count = bytes.count
        var start = 0
        while start < count {
            if pieces.count >= maximum { return (pieces, start) }
            let found = Self.firstNewline(base, from: start, count: count)
            let end = found ?? count
            bytesExamined += (found == nil ? end : end + 1) - start
            if isSkipping {
                if found != nil { isSkipping = false }
                start = end + 1
                continue
            }
            let length = partial.count + (end - start)
            let lastByte = end > start ? bytes[end - 1] : partial.last
            let content = lastByte == Self.carriageReturn ? length - 1 : length
            if let limit, content > limit {
                releasePartial()
                pieces.append(.tooLong)
                if overflow == .stop {
                    isStopped = true
                    return (pieces, count)
                }
                // Without a newline in this chunk, the line goes on in the next.
                isSkipping = found == nil
                start = end + 1
                continue
            }
            let segment = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            guard found != nil else {
                partial.append(contentsOf: segment)
                bytesExamined += segment.count
                break
            }
            if partial.isEmpty {
                let line = content < length ? UnsafeRawBufferPointer(rebasing: segment.dropLast()) : segment
                pieces.append(.line(String(decoding: line, as: UTF8.self)))
            } else {
                partial.append(contentsOf: segment)
                bytesExamined += segment.count
                pieces.append(.line(String(decoding: partial[..<content], as: UTF8.self)))
                releasePartial()
            }
            start = end + 1
        }
        return (pieces, count)
    }

    /// The unterminated last line, if any, at end of input; the buffer is
    /// then empty and ready for a new stream.
    mutating func finish() -> String? {
        defer {
            partial = []
            isSkipping = false
            isStopped = false
        }
        guard !isStopped, !isSkipping, !partial.isEmpty else { return nil }
        let content = partial.last == Self.carriageReturn ? partial.count - 1 : partial.count
        return String(decoding: partial[..<content], as: UTF8.self)
    }

    private mutating func releasePartial() {
        partial.removeAll(keepingCapacity: partial.capacity <= Self.keptCapacity)
    }

    private static func firstNewline(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        #if canImport(Glibc)
        guard let found = memchr(base + start, Int32(newline), count - start) else { return nil }
        return UnsafeRawPointer(found) - base
        #else
        let bytes = UnsafeRawBufferPointer(start: base, count: count)
        return bytes[start...].firstIndex(of: newline)
        #endif
    }
}
