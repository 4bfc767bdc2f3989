public import ComposeApp

extension StandardInput {
    /// The frames `decoder` makes of standard input, instead of lines:
    /// once called, the input's own emitter sends nothing.
    ///
    /// ```swift
    /// // Records separated by NUL bytes: `find . -print0 | app`.
    /// let input = StandardInput()
    /// input.frames(using: DelimiterDecoder(delimiter: [0], maximumLength: 4096)) += { path in ... }
    /// ```
    ///
    /// As `TCPConnection.frames(using:pausedWhileFull:)`: decoded lazily
    /// from one buffer, at most the loop's line budget per turn, paused
    /// while `sink` (none unless given) is full, and the input not read
    /// meanwhile. A frame over the decoder's maximum, or malformed input,
    /// is reported on `StandardInput.errors` (logged; its ``FramingError``
    /// is `LoopError.framingError`) and reading stops,
    /// as after a failed read. Call it once, in the observers of the
    /// component that stores the input (before it starts).
    ///
    /// - Parameters:
    ///   - decoder: Turns the bytes into frames.
    ///   - sink: The stream whose fullness pauses the frames (where they
    ///     are relayed), or `nil`.
    /// - Returns: The emitter of the frames.
    @inlinable
    public func frames<Decoder: FrameDecoder>(
        using decoder: Decoder,
        pausedWhileFull sink: (any WritableStream)? = nil
    ) -> Emitter<Decoder.Frame> {
        let state = DecodingState(decoder)
        let reader = FrameReader(state, operation: "StandardInput.frames", context: "standard input", contextOf: emitter)
        guard decodeFrames(with: reader, pacedBy: sink) else {
            return framesAlreadyDecoded("StandardInput", existing: frameEmitter)
        }
        return state.emitter
    }
}
