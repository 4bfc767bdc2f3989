public import Compose
public import ComposeApp
public import NIOCore

extension ChildProcess {
    /// The frames `decoder` makes of the child's standard output, instead
    /// of lines: once called, `ChildProcess.output` sends nothing (the
    /// error output stays lines).
    ///
    /// ```swift
    /// let dump = ChildProcess("pg_dump", arguments: ["--format=custom", "db"])
    /// dump.frames(using: FixedLengthDecoder(length: 8192)) += { block in ... }
    /// ```
    ///
    /// As `TCPConnection.frames(using:pausedWhileFull:)`: decoded lazily
    /// from one buffer, at most the loop's line budget per turn, paused
    /// while `sink` (none unless given: a relay's) is full or reading is
    /// paused (`ChildProcess.pauseReading()`), and the child's pipe is
    /// not read meanwhile (the child blocks once it is full). Every frame
    /// arrives before `ChildProcess.didExit`. A frame over the decoder's
    /// maximum, or malformed output, is reported on
    /// `ChildProcess.errors` (`LoopError.Code.frameTooLarge`,
    /// `LoopError.Code.malformedFrame`, naming the executable, with its
    /// ``FramingError`` as `LoopError.framingError`) and closes
    /// the output: the child's next write to it fails, and the child runs
    /// on. Call it once, before `ChildProcess.start()`, in the
    /// observers of the component that stores the process.
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
        let reader = FrameReader(state, operation: "ChildProcess.frames", context: executable, contextOf: output)
        guard decodeFrames(with: reader, pacedBy: sink) else {
            return framesAlreadyDecoded("ChildProcess(\(executable))", existing: frameEmitter)
        }
        return state.emitter
    }

    /// Writes the readable bytes of `buffer` to the child's standard input
    /// (see `ChildProcess.write(_:)`).
    @discardableResult
    public func write(_ buffer: ByteBuffer) -> WriteResult {
        buffer.withUnsafeReadableBytes { write($0) }
    }

    /// Writes `frame` to the child's standard input as `encoder` encodes
    /// it (see `TCPConnection.write(_:using:)`).
    ///
    /// - Throws: What the encoder throws; nothing is written then.
    @discardableResult
    public func write<Encoder: FrameEncoder>(_ frame: Encoder.Frame, using encoder: Encoder) throws(Encoder.Failure) -> WriteResult {
        try (output.ownerContext ?? AppContext.current).encoding({ (buffer: inout ByteBuffer) throws(Encoder.Failure) in
            try encoder.encode(frame, into: &buffer)
        }, then: { write($0) })
    }
}
