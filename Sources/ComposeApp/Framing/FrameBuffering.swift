import Compose

/// One stream's input buffer and frame decoder, as ``FrameDelivery`` drives
/// them: ComposeFraming's frame reader, which keeps the bytes in a SwiftNIO
/// `ByteBuffer` (ComposeApp itself does not link NIOCore: see
/// docs/protocols.md).
///
/// The delivery appends what the stream reads, then asks for one frame at a
/// time, as long as the consumer can take one: frames are decoded lazily, so
/// what is not delivered yet stays encoded in the buffer.
@usableFromInline
@MainActor
package protocol FrameBuffering: AnyObject {
    /// The emitter of the frames, adopted by the stream's component.
    var frames: any EmitterProtocol { get }
    /// The bytes buffered: read and not decoded yet.
    var bufferedBytes: Int { get }
    /// Appends a copy of `bytes`, which follow everything appended before.
    func append(_ bytes: UnsafeRawBufferPointer)
    /// Decodes the next frame and sends it. Returns `false`, sending
    /// nothing, when the buffer holds no complete frame.
    ///
    /// - Throws: ``LoopError/Code/frameTooLarge`` or
    ///   ``LoopError/Code/malformedFrame``, naming the stream.
    func deliverNext() throws(LoopError) -> Bool
    /// End of input: decodes and sends the last frames the decoder makes
    /// of what is left (an unterminated last line), then empties the
    /// buffer.
    func deliverLast() throws(LoopError)
    /// Delivery stopped for now: releases the buffer when it is empty (an
    /// idle stream holds none), or moves the unread bytes to its start
    /// when more than half of it was read.
    func tidy()
    /// Drops the buffer (the stream closed or failed).
    func release()
    /// A new stream (a child's next run): the decoder starts afresh.
    func restart()
}
