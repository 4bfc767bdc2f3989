public import NIOCore
/// Turns the bytes of a stream into frames (messages): what
/// `TCPConnection.frames(using:pausedWhileFull:)`, `ChildProcess.frames(using:pausedWhileFull:)`
/// and `StandardInput.frames(using:pausedWhileFull:)` decode with.
///
/// The stream keeps what it reads in one `ByteBuffer` and calls
/// ``decode(buffer:)`` once per frame it can deliver: take the bytes of one
/// frame from the buffer's readable bytes (moving its reader index past
/// them) and return the frame, or return `nil`, leaving the reader index
/// where it was, when the buffer does not hold a whole frame yet. The same
/// shape as SwiftNIO's `NIOSingleStepByteToMessageDecoder`, so its decoders
/// port with a rename.
///
/// ```swift
/// /// A frame is a 2-byte big-endian length, then that many bytes.
/// struct ShortFrames: FrameDecoder {
///     var maximumFrameLength: Int { 2 + 4096 }
///
///     mutating func decode(buffer: inout ByteBuffer) throws -> ByteBuffer? {
///         guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self),
///               buffer.readableBytes >= 2 + Int(length) else { return nil }
///         buffer.moveReaderIndex(forwardBy: 2)
///         return buffer.readSlice(length: Int(length))
///     }
/// }
/// ```
///
/// **The buffer between calls.** The stream appends after the readable
/// bytes, and may move them to the start of its memory (discarding what
/// was read) or release the memory when nothing is left: keep positions
/// relative to `buffer.readerIndex`, never absolute indices, in a decoder's
/// state. A frame that is a slice of the buffer (`readSlice(length:)`)
/// copies nothing; it keeps the buffer's memory alive as long as it lives,
/// so copy what you keep for long (`ByteBuffer(bytes: frame.readableBytesView)`,
/// which takes only the frame's bytes).
///
/// **Limits.** ``maximumFrameLength`` bounds what one frame may take in the
/// input: when ``decode(buffer:)`` returns `nil` while more bytes than that
/// are buffered, the stream fails with `LoopError.Code.frameTooLarge`. A
/// decoder that learns a frame's length early (from a header) throws
/// ``FrameTooLarge`` at once instead, so the stream does not wait for the
/// bytes. Any other error thrown (malformed input) fails the stream with
/// `LoopError.Code.malformedFrame`: throw
/// ``FramingError/malformedFrame(reason:)`` to say what was wrong in the
/// protocol's own words (an error of your own type arrives with its
/// description as the reason). Either way the frames before it were
/// delivered, the error goes to the stream's `errors` with its
/// ``FramingError`` (`LoopError.framingError`), where an observer may
/// still write a last reply, and the stream is closed.
///
/// Decoding runs on the main actor, as the stream's observers do. A
/// decoder is a plain value: closures it hands to `ByteBuffer`'s methods
/// (`withUnsafeReadableBytes`) are not main-actor closures, and pay no
/// executor check (see the Performance article).
public protocol FrameDecoder {
    /// What the decoder makes of the bytes: a `ByteBuffer` slice, a
    /// `String`, a parsed message.
    associatedtype Frame

    /// The most bytes one frame may take in the input, its header or
    /// delimiter included. `Int.max` for no limit (only for input you
    /// trust).
    var maximumFrameLength: Int { get }

    /// Takes the next frame from `buffer`'s readable bytes, or returns
    /// `nil` (moving nothing) when they do not hold a whole frame yet.
    ///
    /// - Throws: ``FrameTooLarge`` when a frame is known to exceed the
    ///   maximum; any other error when the input is malformed.
    mutating func decode(buffer: inout ByteBuffer) throws -> Frame?

    /// At end of input, takes the next frame from what is left, which
    /// ``decode(buffer:)`` found incomplete: a last line without its
    /// newline, say. Called until it returns `nil`; bytes still left then
    /// are dropped. The default calls ``decode(buffer:)``.
    mutating func decodeLast(buffer: inout ByteBuffer) throws -> Frame?
}

extension FrameDecoder {
    public mutating func decodeLast(buffer: inout ByteBuffer) throws -> Frame? {
        try decode(buffer: &buffer)
    }
}
