public import NIOCore
/// Turns a frame into bytes, written straight into a stream's outgoing
/// buffer: `TCPConnection.write(_:using:)`.
///
/// ```swift
/// struct NetstringEncoder: FrameEncoder {
///     func encode(_ frame: String, into buffer: inout ByteBuffer) {
///         buffer.writeString("\(frame.utf8.count):")
///         buffer.writeString(frame)
///         buffer.writeString(",")
///     }
/// }
/// connection.write("hello", using: NetstringEncoder())
/// ```
///
/// ``Failure`` is `Never` unless the encoder can fail (a length that does
/// not fit its field, ``LengthPrefixedEncoder``): then the write throws,
/// and sends nothing of that frame (what the encoder appended before it
/// threw is dropped).
public protocol FrameEncoder {
    /// What the encoder writes.
    associatedtype Frame
    /// What ``encode(_:into:)`` throws; `Never` for an encoder that cannot
    /// fail.
    associatedtype Failure: Error = Never

    /// Appends the bytes of `frame` to `buffer`.
    func encode(_ frame: Frame, into buffer: inout ByteBuffer) throws(Failure)
}
