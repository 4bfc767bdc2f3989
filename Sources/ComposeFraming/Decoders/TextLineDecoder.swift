public import ComposeApp
public import NIOCore

/// Lines as `String`s (UTF-8; invalid bytes become U+FFFD): what
/// ``LineDecoder`` finds, decoded. The same lines, limits and last line as
/// `TCPConnection.lines`, with the frames' back-pressure.
///
/// ```swift
/// connection.frames(using: TextLineDecoder(maximumLength: 4096)) += { line in
///     connection.writeLine(line.uppercased())
/// }
/// ```
public struct TextLineDecoder: FrameDecoder, Sendable {
    private var lines: LineDecoder

    /// Lines of at most `maximumLength` bytes (64 KiB unless given).
    public init(maximumLength: LineLengthLimit = .default) {
        lines = LineDecoder(maximumLength: maximumLength)
    }

    /// The longest line accepted, in bytes, without its `\n` or `\r\n`.
    public var maximumLength: LineLengthLimit { lines.maximumLength }

    public var maximumFrameLength: Int { lines.maximumFrameLength }

    public mutating func decode(buffer: inout ByteBuffer) throws -> String? {
        try lines.decode(buffer: &buffer).map { String(buffer: $0) }
    }

    public mutating func decodeLast(buffer: inout ByteBuffer) throws -> String? {
        try lines.decodeLast(buffer: &buffer).map { String(buffer: $0) }
    }
}
