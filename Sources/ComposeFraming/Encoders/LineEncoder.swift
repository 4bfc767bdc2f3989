public import NIOCore

/// Writes each `String` as a line: its UTF-8 bytes, then `\n` (or `\r\n`).
///
/// ```swift
/// connection.write("+OK", using: LineEncoder(terminator: .crlf))
/// ```
public struct LineEncoder: FrameEncoder, Sendable {
    /// What ends a line.
    public enum Terminator: Sendable, Hashable {
        /// `\n`.
        case lf
        /// `\r\n` (the Internet protocols' end of line).
        case crlf
    }

    /// What ends each line written.
    public let terminator: Terminator

    /// Lines ended by `terminator` (`\n` unless given).
    public init(terminator: Terminator = .lf) {
        self.terminator = terminator
    }

    public func encode(_ frame: String, into buffer: inout ByteBuffer) {
        buffer.writeString(frame)
        switch terminator {
        case .lf: buffer.writeInteger(UInt8(ascii: "\n"))
        case .crlf: buffer.writeInteger(UInt16(0x0D0A))
        }
    }
}
