public import Compose
public import ComposeApp
public import NIOCore

extension TCPConnection {
    /// The frames `decoder` makes of what the connection receives: lines,
    /// length-prefixed messages, fixed-size records, delimited ones, or
    /// your own protocol's (see ``FrameDecoder``).
    ///
    /// ```swift
    /// struct Session: Component {
    ///     let connection: TCPConnection
    ///     var observers: Void {
    ///         connection.frames(using: LengthPrefixedDecoder()) += { request in
    ///             connection.write(reply(to: request), using: LengthPrefixedEncoder())
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// Call it once per connection, in the observers of the component that
    /// stores the connection (its component then adopts the emitter, as it
    /// does `TCPConnection.lines`); a second call reports
    /// `Diagnostic.Code.framesAlreadyDecoded` and keeps the first decoder.
    /// `TCPConnection.received` still sends every chunk.
    ///
    /// **Buffer.** What is received is copied once into the connection's
    /// input buffer (a `ByteBuffer`), and frames are decoded from it one at
    /// a time, as they are delivered. A frame that is a slice of it copies
    /// nothing. The buffer is released when empty, so an idle connection
    /// holds none (`TCPConnection.bufferedInputBytes` tells what it holds).
    ///
    /// **Back-pressure.** Frames are delivered while `sink` (this
    /// connection's own send queue unless given: the replies) is below its
    /// high-water mark. When it is full (`WritableStream.isFull`) the
    /// delivery stops, what is not delivered stays undecoded in the buffer,
    /// and the connection stops reading; at the sink's
    /// `WritableStream.didBecomeWritable` the waiting frames go first,
    /// then reading resumes. So a client that pipelines requests without
    /// reading the replies makes the server buffer at most one read (plus
    /// the start of an incomplete frame). `TCPConnection.pauseReading()`
    /// also holds the frames until `TCPConnection.resumeReading()`. A
    /// `sink` that goes while full (it closes, its component is removed,
    /// it is freed) holds nothing back: the frames go on from the next
    /// turn.
    ///
    /// **Fairness.** At most the loop's line budget (1,024) of frames is
    /// delivered per loop turn; the rest waits for the next turn, before
    /// anything newer is read.
    ///
    /// **Limits.** A frame over the decoder's ``FrameDecoder/maximumFrameLength``
    /// (`LoopError.Code.frameTooLarge`), or input the decoder rejects
    /// (`LoopError.Code.malformedFrame`), closes the connection: the frames
    /// before it are delivered, the error (naming the peer, the limit and
    /// what was seen) is logged and sent on `TCPConnection.errors`, with
    /// its ``FramingError`` (`LoopError.framingError`) to switch on, while
    /// the connection is still open: an observer may write a last reply
    /// (`-ERR Protocol error: ...`). Then the connection closes after
    /// writing out its queue, with `TCPConnection.CloseReason.failed(_:)`.
    /// Other connections are not affected.
    ///
    /// Frames are not kept as the emitter's last value: `++=` calls back
    /// for new frames only.
    ///
    /// - Parameters:
    ///   - decoder: Turns the bytes into frames.
    ///   - sink: The stream whose fullness pauses the frames; this
    ///     connection when `nil`.
    /// - Returns: The emitter of the frames.
    @inlinable
    public func frames<Decoder: FrameDecoder>(
        using decoder: Decoder,
        pausedWhileFull sink: (any WritableStream)? = nil
    ) -> Emitter<Decoder.Frame> {
        let state = DecodingState(decoder)
        let reader = FrameReader(state, operation: "TCPConnection.frames", context: remoteAddress, contextOf: emitter)
        guard decodeFrames(with: reader, pacedBy: sink) else {
            return framesAlreadyDecoded("TCPConnection(\(remoteAddress))", existing: frameEmitter)
        }
        return state.emitter
    }

    /// Writes the readable bytes of `buffer` (a frame received, a reply
    /// built), as `TCPConnection.write(_:)`
    /// does: to the socket at once if it takes them, else copied to the
    /// queue.
    @discardableResult
    public func write(_ buffer: ByteBuffer) -> WriteResult {
        buffer.withUnsafeReadableBytes { write($0) }
    }

    /// Writes what `encode` appends to the buffer it is given: a reply
    /// encoded straight into the app's scratch buffer, which goes to the
    /// socket at once or into this turn's batch (no array per reply, no
    /// allocation).
    ///
    /// ```swift
    /// connection.write { buffer in
    ///     buffer.writeString("$\(value.readableBytes)\r\n")
    ///     buffer.writeImmutableBuffer(value)
    ///     buffer.writeString("\r\n")
    /// }
    /// ```
    ///
    /// - Throws: What `encode` throws; nothing is written then.
    @discardableResult
    public func write<Failure: Error>(_ encode: (inout ByteBuffer) throws(Failure) -> Void) throws(Failure) -> WriteResult {
        try encodingBuffers.encoding(encode) { write($0) }
    }

    /// The app's ``FramingBuffers``, kept by the connection once it belongs
    /// to an app context: found without a weak load and a dynamic
    /// exclusivity check on every reply (about 140 instructions). A strong
    /// reference to an object of the app's, which holds no reference back.
    var encodingBuffers: FramingBuffers? {
        if let buffers = framingBuffers as? FramingBuffers { return buffers }
        guard let context = emitter.ownerContext else { return AppContext.current?.framingBuffers }
        let buffers = context.framingBuffers
        framingBuffers = buffers
        return buffers
    }

    /// Writes `frame` as `encoder` encodes it, straight into the app's
    /// scratch buffer (see `TCPConnection.write(_:)`).
    ///
    /// - Throws: What the encoder throws (``FrameTooLarge`` for a frame its
    ///   length field cannot carry); nothing is written then. An encoder
    ///   that cannot fail needs no `try`.
    @discardableResult
    public func write<Encoder: FrameEncoder>(_ frame: Encoder.Frame, using encoder: Encoder) throws(Encoder.Failure) -> WriteResult {
        try write { (buffer: inout ByteBuffer) throws(Encoder.Failure) in try encoder.encode(frame, into: &buffer) }
    }
}

/// A second `frames(using:)` on one stream: reported, and the first
/// decoder's emitter returned when its frames are of the same type (a
/// fresh emitter that never sends otherwise).
@usableFromInline
@MainActor
func framesAlreadyDecoded<Frame>(_ stream: String, existing: (any EmitterProtocol)?) -> Emitter<Frame> {
    Diagnostics.report(Diagnostic(
        .framesAlreadyDecoded,
        "\(stream).frames(using:) was called again: a stream has one decoder, and the first one stays."
    ))
    return existing as? Emitter<Frame> ?? Emitter<Frame>()
}
