import Compose
public import ComposeApp
public import NIOCore

/// One stream's input buffer: what ComposeApp's frame delivery drives
/// (``ComposeApp/FrameBuffering``), with the decoder behind two closures
/// made where the decoder's type is known (`frames(using:pausedWhileFull:)`,
/// inlined into the app's module), so that decoding and sending run as code
/// specialised for it, never as generic code looking up metadata.
///
/// The bytes read are copied once, from the loop's shared read buffer into
/// this stream's `ByteBuffer`; frames are decoded from it one at a time, as
/// the delivery asks. When the delivery stops, a buffer with nothing left is
/// released to the app's spare slot (an idle stream holds none, and the
/// next read of any stream reuses it), and one more than half read has its
/// unread bytes moved to its start, so a frame arriving in many pieces is
/// copied a bounded number of times in all, never once per piece.
@usableFromInline
@MainActor
final class FrameReader: FrameBuffering {
    /// Decodes the next frame from the buffer (``decoding(_:)``) and sends
    /// it; `false` when there is none. Throws ``FrameTooLarge``, the
    /// decoder's errors, or ``FramingError/decoderMadeNoProgress``.
    private let decodeNext: @MainActor (FrameReader) throws -> Bool
    /// As ``decodeNext``, at end of input (the decoder's `decodeLast`).
    private let decodeLast: @MainActor (FrameReader) throws -> Bool
    /// Puts the decoder back as it was made.
    private let resetDecoder: @MainActor () -> Void
    /// The decoder's type, for errors.
    private let decoderName: String
    /// `TCPConnection.frames`, ...: names the stream in errors.
    private let operation: String
    /// The peer's address, the executable.
    private let context: String?
    /// Finds the app's spare buffers (the stream's context, known once its
    /// component is bound).
    private let findBuffers: @MainActor () -> FramingBuffers?
    private var buffers: FramingBuffers?
    @usableFromInline let frames: any EmitterProtocol
    // @exclusivity(unchecked): read and written on every frame; every
    // access is a plain statement of this class's methods, none spans a
    // call to other code (the decoder runs on the buffer `swap`ped out
    // into a local variable, see decoding(_:)), so no two accesses can
    // overlap.
    #if DEBUG
    @usableFromInline var buffer = ByteBuffer()
    #else
    @exclusivity(unchecked) @usableFromInline var buffer = ByteBuffer()
    #endif

    /// Reads frames with `state`'s decoder and sends them on its emitter.
    @inlinable
    convenience init<Decoder: FrameDecoder>(_ state: DecodingState<Decoder>, operation: String, context: String?, contextOf owner: some EmitterProtocol) {
        self.init(
            decodeNext: { reader in try state.decodeNext(from: reader) },
            decodeLast: { reader in try state.decodeLast(from: reader) },
            resetDecoder: { state.reset() },
            decoderName: "\(Decoder.self)",
            operation: operation,
            context: context,
            findBuffers: { (owner.emitter.ownerContext ?? AppContext.current)?.framingBuffers },
            frames: state.emitter
        )
    }

    @usableFromInline
    init(
        decodeNext: @escaping @MainActor (FrameReader) throws -> Bool,
        decodeLast: @escaping @MainActor (FrameReader) throws -> Bool,
        resetDecoder: @escaping @MainActor () -> Void,
        decoderName: String,
        operation: String,
        context: String?,
        findBuffers: @escaping @MainActor () -> FramingBuffers?,
        frames: any EmitterProtocol
    ) {
        self.decodeNext = decodeNext
        self.decodeLast = decodeLast
        self.resetDecoder = resetDecoder
        self.decoderName = decoderName
        self.operation = operation
        self.context = context
        self.findBuffers = findBuffers
        self.frames = frames
    }

    @usableFromInline
    var bufferedBytes: Int { buffer.readableBytes }

    @usableFromInline
    func append(_ bytes: UnsafeRawBufferPointer) {
        if buffer.capacity == 0 {
            if buffers == nil { buffers = findBuffers() }
            if let spare = buffers?.takeSpareInput() { buffer = spare }
        }
        buffer.writeBytes(bytes)
    }

    @usableFromInline
    func deliverNext() throws(LoopError) -> Bool {
        guard buffer.readableBytes > 0 else { return false }
        return try decode(with: decodeNext)
    }

    @usableFromInline
    func deliverLast() throws(LoopError) {
        while buffer.readableBytes > 0 {
            guard try decode(with: decodeLast) else { break }
        }
        release()
    }

    private func decode(with step: @MainActor (FrameReader) throws -> Bool) throws(LoopError) -> Bool {
        do {
            return try step(self)
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` (the decoder) on the buffer, swapped out into a local
    /// variable meanwhile: whatever the decoder does, no access to the
    /// stored buffer overlaps it. The frame is sent after it returns.
    @inlinable
    func decoding<Result>(_ body: (inout ByteBuffer) throws -> Result) rethrows -> Result {
        var local = ByteBuffer()
        swap(&local, &buffer)
        defer { swap(&local, &buffer) }
        return try body(&local)
    }

    @usableFromInline
    func tidy() {
        if buffer.readableBytes == 0 {
            release()
        } else if buffer.readerIndex > buffer.readableBytes {
            // More than half read: what is left moves to the start, a copy
            // no longer than what was read since the last one.
            buffer.discardReadBytes()
        }
    }

    @usableFromInline
    func release() {
        guard buffer.capacity > 0 else { return }
        var released = ByteBuffer()
        swap(&released, &buffer)
        buffers?.putBackInput(&released)
    }

    @usableFromInline
    func restart() {
        release()
        resetDecoder()
    }

    /// `error` from the decoder, as the stream reports it: a `LoopError`
    /// carrying the ``FramingError`` (``LoopError/framingError``).
    private func failure(_ error: any Error) -> LoopError {
        let framing = FramingError(thrownByDecoder: error)
        switch framing {
        case .frameTooLarge(let tooLarge):
            return .frameTooLarge(operation, limit: tooLarge.limit, seen: tooLarge.seen, context: context, detail: framing)
        case .malformedFrame(let reason):
            return .malformedFrame(operation, decoder: decoderName, reason: reason, context: context, detail: framing)
        case .decoderMadeNoProgress:
            return .malformedFrame(operation, decoder: decoderName, reason: "it returned a frame without taking any byte from the buffer", context: context, detail: framing)
        }
    }
}

/// A stream's decoder and the emitter of its frames: the part of a frame
/// reader that depends on the decoder's type, specialised for it in the
/// module that calls `frames(using:pausedWhileFull:)`.
@usableFromInline
@MainActor
final class DecodingState<Decoder: FrameDecoder> {
    // @exclusivity(unchecked): accessed only by decodeNext and decodeLast,
    // which the stream's frame delivery calls one at a time (it does not
    // deliver re-entrantly: FrameDelivery.isDelivering), and which nothing
    // else can reach (the decoder gets only the buffer); so the access that
    // spans the decoder's call never overlaps another.
    #if DEBUG
    @usableFromInline var decoder: Decoder
    #else
    @exclusivity(unchecked) @usableFromInline var decoder: Decoder
    #endif
    /// The decoder as it was made, for a new stream.
    @usableFromInline let initial: Decoder
    /// The frames, sent without being kept as the emitter's last value (a
    /// kept slice would hold the buffer's memory).
    @usableFromInline let emitter = Emitter<Decoder.Frame>()

    @inlinable
    init(_ decoder: Decoder) {
        self.decoder = decoder
        initial = decoder
    }

    /// Puts the decoder back as it was made.
    @inlinable
    func reset() {
        decoder = initial
    }

    /// Decodes the next frame from `reader`'s buffer and sends it.
    @inlinable
    func decodeNext(from reader: FrameReader) throws -> Bool {
        let frame = try reader.decoding { buffer -> Decoder.Frame? in
            let before = buffer.readableBytes
            guard let frame = try decoder.decode(buffer: &buffer) else {
                let limit = decoder.maximumFrameLength
                if buffer.readableBytes > limit {
                    throw FrameTooLarge(length: buffer.readableBytes, limit: limit, isAnnounced: false)
                }
                return nil
            }
            guard buffer.readableBytes < before else { throw FramingError.decoderMadeNoProgress }
            return frame
        }
        guard let frame else { return false }
        emitter.sendWithoutKeeping(frame)
        return true
    }

    /// Decodes the next last frame (at end of input) from `reader`'s
    /// buffer and sends it; `false` when there is none, or when it took no
    /// byte (it would be sent forever).
    @inlinable
    func decodeLast(from reader: FrameReader) throws -> Bool {
        var progressed = false
        let frame = try reader.decoding { buffer -> Decoder.Frame? in
            let before = buffer.readableBytes
            let frame = try decoder.decodeLast(buffer: &buffer)
            progressed = buffer.readableBytes < before
            return frame
        }
        guard let frame else { return false }
        emitter.sendWithoutKeeping(frame)
        return progressed
    }
}
