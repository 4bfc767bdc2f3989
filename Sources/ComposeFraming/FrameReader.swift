import Compose
import ComposeApp
import NIOCore

/// One stream's input buffer and decoder: what ComposeApp's frame delivery
/// drives (``ComposeApp/FrameBuffering``).
///
/// The bytes read are copied once, from the loop's shared read buffer into
/// this stream's `ByteBuffer`; frames are decoded from it one at a time, as
/// the delivery asks. When the delivery stops, a buffer with nothing left is
/// released (an idle stream holds none) and one read more than half through
/// has its unread bytes moved to its start, so a frame arriving in many
/// pieces is copied a bounded number of times in all, never once per piece.
@MainActor
final class FrameReader<Decoder: FrameDecoder>: FrameBuffering {
    /// The frames, sent without being kept as the emitter's last value (a
    /// kept slice would hold the buffer's memory).
    let emitter = Emitter<Decoder.Frame>()
    private var decoder: Decoder
    private var buffer = ByteBuffer()
    /// `TCPConnection.frames`, ...: names the stream in errors.
    private let operation: String
    /// The peer's address, the executable.
    private let context: String?

    init(_ decoder: Decoder, operation: String, context: String?) {
        self.decoder = decoder
        self.operation = operation
        self.context = context
    }

    var frames: any EmitterProtocol { emitter }

    var bufferedBytes: Int { buffer.readableBytes }

    func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.writeBytes(bytes)
    }

    func deliverNext() throws(LoopError) -> Bool {
        let before = buffer.readableBytes
        guard before > 0 else { return false }
        let frame: Decoder.Frame?
        do {
            frame = try decoder.decode(buffer: &buffer)
        } catch {
            throw failure(error)
        }
        guard let frame else {
            let limit = decoder.maximumFrameLength
            if buffer.readableBytes > limit {
                throw failure(FrameTooLarge(length: buffer.readableBytes, limit: limit, isAnnounced: false))
            }
            return false
        }
        guard buffer.readableBytes < before else {
            throw LoopError.malformedFrame(operation, decoder: "\(Decoder.self)", error: DecoderMadeNoProgress(), context: context)
        }
        emitter.sendWithoutKeeping(frame)
        return true
    }

    func deliverLast() throws(LoopError) {
        while buffer.readableBytes > 0 {
            let before = buffer.readableBytes
            let frame: Decoder.Frame?
            do {
                frame = try decoder.decodeLast(buffer: &buffer)
            } catch {
                throw failure(error)
            }
            guard let frame else { break }
            emitter.sendWithoutKeeping(frame)
            if buffer.readableBytes >= before { break }
        }
        release()
    }

    func tidy() {
        if buffer.readableBytes == 0 {
            release()
        } else if buffer.readerIndex > buffer.readableBytes {
            // More than half read: what is left moves to the start, a copy
            // no longer than what was read since the last one.
            buffer.discardReadBytes()
        }
    }

    func release() {
        buffer = ByteBuffer()
    }

    /// `error` from the decoder, as the stream reports it.
    private func failure(_ error: any Error) -> LoopError {
        if let tooLarge = error as? FrameTooLarge {
            return .frameTooLarge(operation, limit: tooLarge.limit, seen: tooLarge.seen, context: context)
        }
        return .malformedFrame(operation, decoder: "\(Decoder.self)", error: error, context: context)
    }
}

/// A decoder returned a frame without taking a byte from the buffer: it
/// would return it forever.
struct DecoderMadeNoProgress: Error, CustomStringConvertible {
    var description: String { "it returned a frame without taking any byte from the buffer" }
}
