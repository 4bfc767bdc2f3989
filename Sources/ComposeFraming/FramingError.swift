public import ComposeApp

/// Why a stream's frames failed, as a value to switch on: what
/// `LoopError.framingError` gives an observer of the stream's `errors`,
/// where the connection is still open and a last reply can be written
/// before it closes, as redis answers a malformed request.
///
/// ```swift
/// connection.errors += { error in
///     switch error.framingError {
///     case .malformedFrame(let reason)?:
///         connection.write("-ERR Protocol error: \(reason)\r\n")
///     case .frameTooLarge, .decoderMadeNoProgress, nil:
///         break
///     }
/// }
/// ```
///
/// A decoder throws one to say what was wrong in the peer's own words
/// (`throw FramingError.malformedFrame(reason: "invalid bulk length")`),
/// or ``FrameTooLarge``; any other error it throws arrives as
/// ``malformedFrame(reason:)`` with the error's description as the reason.
public enum FramingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A frame longer than the decoder's ``FrameDecoder/maximumFrameLength``:
    /// its ``FrameTooLarge/length`` (announced, or seen so far) and the
    /// ``FrameTooLarge/limit`` it exceeds.
    case frameTooLarge(FrameTooLarge)
    /// The input is not what the decoder accepts: `reason` says what was
    /// wrong (`"invalid multibulk length"`, `"expected '$', got 'x'"`).
    case malformedFrame(reason: String)
    /// The decoder returned a frame without taking a byte from the buffer
    /// (it would return that frame for ever): a fault of the decoder, not
    /// of the peer.
    case decoderMadeNoProgress

    /// What was wrong, and what would be right.
    public var description: String {
        switch self {
        case .frameTooLarge(let tooLarge):
            "\(tooLarge.seen), more than the maximum frame length of \(tooLarge.limit) bytes: frames must be at most \(tooLarge.limit) bytes (the decoder's maximum), or the decoder given a larger one"
        case .malformedFrame(let reason):
            "malformed input: \(reason)"
        case .decoderMadeNoProgress:
            "the decoder returned a frame without taking any byte from the buffer: decode(buffer:) must move the reader index past each frame it returns"
        }
    }

    /// What `error`, thrown by a decoder, means for the stream.
    init(thrownByDecoder error: any Error) {
        switch error {
        case let framing as FramingError: self = framing
        case let tooLarge as FrameTooLarge: self = .frameTooLarge(tooLarge)
        default: self = .malformedFrame(reason: "\(error)")
        }
    }
}

extension LoopError {
    /// Why the frames of a stream failed (``FramingError``), for an error
    /// of kind `LoopError.Code.frameTooLarge` or
    /// `LoopError.Code.malformedFrame` sent on the stream's `errors`;
    /// `nil` for any other.
    public var framingError: FramingError? {
        detail as? FramingError
    }
}
