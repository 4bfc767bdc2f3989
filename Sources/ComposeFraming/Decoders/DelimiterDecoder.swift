public import Compose
public import NIOCore

/// Frames that end with a delimiter of one or more bytes (a NUL, `\r\n\r\n`,
/// `,`), as `ByteBuffer` slices without it.
///
/// ```swift
/// // Records ended by NUL bytes (`find -print0`).
/// child.frames(using: DelimiterDecoder(delimiter: [0], maximumLength: 4096)) += { path in ... }
/// ```
///
/// A frame longer than ``maximumLength`` (without its delimiter) fails the
/// stream with `LoopError.Code.frameTooLarge` as soon as that is known. At
/// end of input the bytes after the last delimiter, if any, are a last
/// frame. Linear: each byte is searched once (`memchr` for the delimiter's
/// first byte), however the frame arrives.
public struct DelimiterDecoder: FrameDecoder, Sendable {
    /// The bytes that end a frame (not part of it).
    public let delimiter: [UInt8]
    /// The longest frame accepted, in bytes, without its delimiter.
    public let maximumLength: Int
    /// The readable bytes already searched without finding the delimiter
    /// (a partial delimiter at the end excluded).
    private var searched = 0

    /// Frames ended by `delimiter`, of at most `maximumLength` bytes
    /// (64 KiB unless given). An empty `delimiter` is reported
    /// (`Diagnostic.Code.invalidDelimiter`) and taken as `[0]`.
    @MainActor
    public init(delimiter: [UInt8], maximumLength: Int = 64 * 1024) {
        if delimiter.isEmpty {
            Diagnostics.report(Diagnostic(.invalidDelimiter, "DelimiterDecoder(delimiter: []): a delimiter needs at least one byte; [0] (NUL) is used."))
        }
        self.delimiter = delimiter.isEmpty ? [0] : delimiter
        self.maximumLength = max(0, maximumLength)
    }

    /// ``maximumLength`` plus the delimiter.
    public var maximumFrameLength: Int {
        maximumLength > Int.max - delimiter.count ? .max : maximumLength + delimiter.count
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let start = buffer.readerIndex
        guard let end = find(in: buffer) else {
            // A partial delimiter at the end may not be part of the frame.
            let length = Swift.max(0, buffer.readableBytes - (delimiter.count - 1))
            if length > maximumLength {
                throw FrameTooLarge(length: length, limit: maximumLength, isAnnounced: false)
            }
            return nil
        }
        searched = 0
        let length = end - start
        if length > maximumLength {
            throw FrameTooLarge(length: length, limit: maximumLength, isAnnounced: false)
        }
        let frame = buffer.getSlice(at: start, length: length)
        buffer.moveReaderIndex(to: end + delimiter.count)
        return frame
    }

    /// The bytes after the last delimiter, if any.
    public mutating func decodeLast(buffer: inout ByteBuffer) throws -> ByteBuffer? {
        if let frame = try decode(buffer: &buffer) { return frame }
        guard buffer.readableBytes > 0 else { return nil }
        searched = 0
        if buffer.readableBytes > maximumLength {
            throw FrameTooLarge(length: buffer.readableBytes, limit: maximumLength, isAnnounced: false)
        }
        return buffer.readSlice(length: buffer.readableBytes)
    }

    /// The index of the first whole delimiter among the readable bytes, or
    /// `nil`; updates `searched`.
    private mutating func find(in buffer: ByteBuffer) -> Int? {
        let first = delimiter[0]
        var from = buffer.readerIndex + searched
        while let candidate = buffer.firstIndex(of: first, from: from) {
            if candidate + delimiter.count > buffer.writerIndex {
                // Perhaps a delimiter cut by the end of what arrived.
                searched = candidate - buffer.readerIndex
                return nil
            }
            if matches(buffer, at: candidate) { return candidate }
            from = candidate + 1
        }
        searched = buffer.readableBytes
        return nil
    }

    private func matches(_ buffer: ByteBuffer, at index: Int) -> Bool {
        for offset in 1..<delimiter.count where buffer.getInteger(at: index + offset, as: UInt8.self) != delimiter[offset] {
            return false
        }
        return true
    }
}

extension Diagnostic.Code {
    /// A `DelimiterDecoder` was made with an empty delimiter.
    public static let invalidDelimiter = Self(rawValue: "invalidDelimiter")
    /// `frames(using:)` was called on a stream that already decodes frames:
    /// the first decoder stays.
    public static let framesAlreadyDecoded = Self(rawValue: "framesAlreadyDecoded")
}
