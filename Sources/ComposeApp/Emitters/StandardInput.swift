import Compose
import Logging
internal import CLibUV

/// Standard input as lines: an emitter of each line (without its newline)
/// and a signal at end of input.
///
/// ```swift
/// struct Shell: Component {
///     let input = StandardInput()
///     var observers: Void {
///         input += { line in print("you said", line) }
///         input.didReachEnd += { Application.shutdown() }
///     }
/// }
/// ```
///
/// Stored in a component it reads while the component is active. Works with
/// a terminal, a pipe or a redirected file. A final line without a newline
/// is still sent, before ``didReachEnd``. Reading keeps the app running until end
/// of input.
///
/// A line longer than ``maximumLineLength`` (64 KiB by default) is not
/// sent: a ``LoopError/Code/lineTooLong`` error is logged and sent on
/// ``errors``, the rest of that line is read and dropped up to its newline,
/// and reading goes on with the next line. So at most the limit plus one
/// read is buffered, whatever the input.
///
/// At most the loop's line budget (1,024 lines) is sent per loop turn: past
/// it reading stops, and the rest of what was read is sent, in order, from
/// the next turn on, before anything newer is read.
///
/// In a test context (`TestApp`) it reads what the test writes
/// (`app.standardInput.write("status\n")`, `app.standardInput.close()`)
/// instead of file descriptor 0, split into lines the same way.
@MainActor
public final class StandardInput: EmitterProtocol, LoopResource {
    /// Each line read, without `\n` (and without a `\r` before it).
    public let emitter = Emitter<String>()
    /// Sent once at end of input.
    public let didReachEnd = SignalEmitter()
    /// Sent when reading fails (reading then stops), and for each line
    /// longer than ``maximumLineLength`` (reading goes on).
    public let errors = Emitter<LoopError>()

    private let fd: Int32
    private(set) var stream: StreamHandle?
    private(set) var file: FileReader?
    /// In a test context: reading the test's standard input.
    private(set) var simulated: SimulatedStandardInput.Reader?
    /// Splits what is read, within the line budget (made by ``start()``).
    private var lines: LineDelivery?
    /// The frames of ComposeFraming's `frames(using:)`, once asked for:
    /// the input goes to them instead of lines (StandardInput+Frames.swift).
    var frameDelivery: FrameDelivery?
    /// The longest line sent (see ``LineLengthLimit``); a longer one is
    /// reported on ``errors`` and skipped.
    public var maximumLineLength: LineLengthLimit {
        didSet { lines?.splitter.limit = maximumLineLength.bytes }
    }
    /// Whether it starts when its component appears.
    public let startsWithComponent: Bool
    /// Whether end of input was reached.
    public private(set) var isAtEnd = false

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] {
        var emitters: [any EmitterProtocol] = [emitter, didReachEnd, errors]
        if let frameDelivery { emitters.append(frameDelivery.buffering.frames) }
        return emitters
    }

    /// Reads file descriptor 0 (or `fd`).
    ///
    /// - Parameters:
    ///   - fd: The file descriptor to read.
    ///   - maximumLineLength: The longest line sent; 64 KiB unless given.
    ///   - startsWithComponent: Whether reading starts when its component
    ///     appears.
    public init(
        fileDescriptor fd: Int32 = 0,
        maximumLineLength: LineLengthLimit = .default,
        startsWithComponent: Bool = true
    ) {
        self.fd = fd
        self.maximumLineLength = maximumLineLength
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        frameDelivery?.close()
        stream?.close()
        file?.close()
        simulated?.close()
    }

    /// Starts reading. Failures are sent on ``errors`` and logged.
    public func start() {
        guard stream == nil, file == nil, simulated == nil, !isAtEnd else { return }
        let onRead: @MainActor (UnsafeRawBufferPointer?) -> Void = { [weak self] bytes in
            self?.received(bytes)
        }
        let onError: @MainActor (LoopError) -> Void = { [weak self] error in
            self?.failed(error)
        }
        // One for the object's life: a line read before a stop goes on
        // after the next start.
        let lines = self.lines ?? LineDelivery(LineBuffer(limit: maximumLineLength)) { [weak self] piece in
            self?.deliver(piece)
        }
        self.lines = lines
        defer { resumeFrames() }
        if let input = (emitter.ownerContext ?? AppContext.current)?.simulatedStandardInput {
            simulated = input.read(onRead)
            return
        }
        do {
            let loop = try EventLoop.resolve(emitter.ownerContext, for: "StandardInput.start")
            frameDelivery?.reading(on: loop)
            if uv_guess_handle(fd) == UV_FILE {
                let reader = FileReader(fd: fd, loop: loop)
                file = reader
                lines.attach(to: reader)
                reader.startReading(onRead, onError: onError)
                return
            }
            let handle = try StreamHandle(loop: loop, fileDescriptor: fd)
            stream = handle
            lines.attach(to: handle)
            try handle.startReading(onRead, onError: onError)
        } catch {
            failed(error)
        }
    }

    /// Stops reading and closes the handle.
    public func stop() {
        stream?.close()
        stream = nil
        file?.close()
        file = nil
        simulated?.close()
        simulated = nil
    }

    private func received(_ bytes: UnsafeRawBufferPointer?) {
        guard let bytes else {
            lines?.finish()
            frameDelivery?.finish()
            isAtEnd = true
            stop()
            didReachEnd.send()
            return
        }
        if let frameDelivery {
            frameDelivery.received(bytes)
        } else {
            lines?.append(bytes)
        }
    }

    private func deliver(_ piece: LineBuffer.Piece) {
        switch piece {
        case .line(let line):
            emitter.send(line)
        case .tooLong:
            let error = LoopError.lineTooLong("StandardInput", limit: maximumLineLength.bytes ?? 0, context: "file descriptor \(fd)")
            logger.warning("StandardInput: \(error)")
            errors.send(error)
        }
    }

    func failed(_ error: LoopError) {
        logger.error("StandardInput: \(error)")
        stop()
        errors.send(error)
    }
}
