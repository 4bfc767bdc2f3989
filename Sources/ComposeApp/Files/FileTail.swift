import Compose
import Logging

/// Follows the lines appended to a file, across rotation and truncation,
/// as `tail -F` does: an emitter of each new line, without blocking the
/// loop.
///
/// ```swift
/// struct LogShipper: Component {
///     let log = FileTail(path: "/var/log/app.log")
///     let upstream: TCPConnection
///     var observers: Void {
///         log.relay(to: upstream, pausing: log)      // each line, with back-pressure
///         log.changes += { change in Application.logger.info("app.log \(change)") }
///     }
/// }
/// ```
///
/// **Where it starts.** With ``StartPosition/end`` (the default, as
/// `tail -F`), the lines already in the file when the tail starts are not
/// sent, only those appended after; with ``StartPosition/start``, every
/// line from the first. A file that appears later (the path was missing,
/// or was rotated) is always read from its start.
///
/// **Rotation.** The tail follows the path, not the file. When the path
/// names another file (`mv app.log app.log.1` and a new `app.log`, or a
/// new file moved onto the path), it reads the old file to its end, sends
/// its last line even without a newline, then reads the new one from its
/// start: no line is sent twice or lost. While the path names no file
/// (after the `mv`, before the new file), it goes on reading the old one,
/// so what the writer appends there before it reopens the path is sent;
/// what a writer appends to the old file after the tail moved on to the
/// new one is not read.
///
/// **Truncation.** When the file becomes shorter than what was read
/// (`: > app.log`, logrotate's `copytruncate`), the tail reads it again
/// from its start, as `tail -F` does: what was written after the
/// truncation is sent, nothing before it is sent again. (A file truncated
/// and then grown past the old size before the tail looks cannot be told
/// from one that grew: its new bytes past the old size are sent.)
///
/// **How.** It watches the file's directory (inotify through libuv; a
/// watch of the directory sees every rename and new file, as a watch of
/// the file could not), and reads with libuv's thread-pool file requests
/// (`uv_fs_read` at its offset, `uv_fs_stat` to compare the path's file
/// with the open one); the loop never waits for the disk. The directory
/// must exist: watching a missing one fails with
/// ``LoopError/Code/notFound`` on ``errors`` (the file itself may be
/// missing: it is read once it appears).
///
/// **Limits and flow.** A line longer than ``maximumLineLength`` (64 KiB
/// by default) is not sent: a ``LoopError/Code/lineTooLong`` error is
/// logged and sent on ``errors``, and the tail goes on with the next
/// line. At most the loop's line budget (1,024 lines) is sent per loop
/// turn, the rest in the next turns. ``pauseReading()`` stops reading
/// until ``resumeReading()``, so `relay(to:pausing:)` slows the tail to
/// its sink's pace; the file waits on the disk meanwhile.
///
/// **In a test context** (`TestApp`) it follows the test's simulated files
/// (`app.files.append("/var/log/app.log", "GET /\n")`,
/// `app.files.rename(...)`), with the same rules: the same code runs on
/// the simulated events and reads.
@MainActor
public final class FileTail: EmitterProtocol, LoopResource, ReadableStream {
    /// Where reading starts in the file that is there when the tail starts.
    public enum StartPosition: Sendable, Hashable {
        /// After what the file holds: only lines appended later are sent
        /// (as `tail -F -n 0`).
        case end
        /// At its first byte: every line is sent.
        case start
    }

    /// What happened to the followed path.
    public enum Change: String, Sendable, Hashable, CustomStringConvertible {
        /// A file appeared at the path, which named none: it is read from
        /// its start.
        case appeared
        /// The path names another file: the old one was read to its end,
        /// the new one is read from its start.
        case rotated
        /// The file became shorter than what was read: it is read again
        /// from its start.
        case truncated
        /// The path names no file any more (moved away or deleted): what
        /// is left of the old file is still read.
        case disappeared

        public var description: String { rawValue }
    }

    /// Each line appended, without `\n` (and without a `\r` before it).
    public let emitter = Emitter<String>()
    /// Each chunk read, before it is split into lines: the bytes as they
    /// are in the file (the last line of a rotated file without its
    /// newline, as it is).
    public let chunks = Emitter<ByteChunk>()
    /// Rotations, truncations, and the path's file appearing or
    /// disappearing.
    public let changes = Emitter<Change>()
    /// Failures: a missing directory, a read error (the tail then stops),
    /// and each line longer than ``maximumLineLength`` (it goes on). Also
    /// logged.
    public let errors = Emitter<LoopError>()

    /// The followed path.
    public let path: String
    /// Where reading starts in the file present at the start.
    public let startPosition: StartPosition
    /// The longest line sent (see ``LineLengthLimit``); a longer one is
    /// reported on ``errors`` and skipped.
    public var maximumLineLength: LineLengthLimit {
        didSet { lines?.splitter.limit = maximumLineLength.bytes }
    }
    /// Whether it starts when its component appears.
    public let startsWithComponent: Bool
    /// Whether reading is paused (``pauseReading()``).
    public private(set) var isPaused = false
    /// How many bytes of the followed file were read: where the next read
    /// starts.
    public var offset: Int64 { followed?.offset ?? 0 }

    /// The emitters its component adopts.
    public var offeredEmitters: [any EmitterProtocol] { [emitter, chunks, changes, errors] }

    // MARK: State (see FileTail+Following.swift)

    /// The file read and its directory watched, while following.
    var access: FileAccess?
    var watch: PathWatch?
    /// The file being read (the path's, or the old one after a rotation).
    var followed: Followed?
    /// Splits what is read, within the line budget (made by ``start()``).
    var lines: LineDelivery?
    /// The line budget's hold of a live loop.
    var turns: TailTurns?
    /// The memory reads fill (a new one when a chunk sent was kept).
    var buffer = ReadBuffer(size: 64 * 1024)
    /// A request is in flight: the next check waits for it.
    var isBusy = false
    /// Something happened while busy or paused: check again once idle.
    var needsCheck = false
    /// Counts starts and stops: a completion of an earlier one is stale.
    var generation = 0
    /// The next file opened is the first since the tail was made (the
    /// start position applies to it).
    var isFirstFile = true
    /// Where the tail was in which file when it stopped: a restart goes on
    /// from there if the path still names that file.
    var resumePoint: (identity: FileStatus.Identity, offset: Int64)?
    /// The path named no file at the last look: the next file opened
    /// ``Change/appeared``.
    var isMissing = false
    /// A file a stop left open under a request in flight, closed when the
    /// request ends (never under it: its descriptor could be reused).
    var orphan: OpenedFile?
    var isClosed = false

    /// Follows `path` while its component is active, or, outside a
    /// component, after ``start()``.
    ///
    /// - Parameters:
    ///   - path: The file to follow. Its directory must exist.
    ///   - startPosition: Where to start in the file present at the start:
    ///     its end (the default, as `tail -F`) or its start.
    ///   - maximumLineLength: The longest line sent; 64 KiB unless given.
    ///   - startsWithComponent: `false` to start it yourself even inside a
    ///     component (it still stops when the component disappears).
    public init(
        path: String,
        from startPosition: StartPosition = .end,
        maximumLineLength: LineLengthLimit = .default,
        startsWithComponent: Bool = true
    ) {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.startPosition = startPosition
        self.maximumLineLength = maximumLineLength
        self.startsWithComponent = startsWithComponent
    }

    isolated deinit {
        watch?.close()
        // No request is in flight: each one's completion keeps the tail.
        if let followed { access?.close(followed.file) }
        if let orphan { access?.close(orphan) }
    }

    /// Whether the tail is following its path.
    public var isFollowing: Bool { watch != nil }

    /// Whether a check of the path is running or waits to run: tests of
    /// real files wait for it to end before they write.
    @_spi(Testing) public var isChecking: Bool { isBusy || needsCheck }

    /// Starts following: watches the directory, then reads the file if it
    /// is there. A failure is logged and sent on ``errors``; the tail then
    /// stays stopped. Does nothing if it is following, or once closed.
    public func start() {
        guard !isClosed, watch == nil else { return }
        let context = emitter.ownerContext ?? AppContext.current
        let operation = "FileTail(\(path)).start"
        do {
            let access = try FileAccess.resolve(context, for: operation)
            watch = try PathWatch.start(Self.directory(of: path), context: context, for: operation, { [weak self] change in
                self?.check()
            }, onError: { [weak self] error in
                self?.failed(error)
            })
            self.access = access
            let lines = self.lines ?? LineDelivery(LineBuffer(limit: maximumLineLength)) { [weak self] piece in
                self?.deliver(piece)
            }
            self.lines = lines
            if case .live(let loop) = access {
                let turns = TailTurns(loop: loop, tail: self)
                self.turns = turns
                lines.attach(to: turns)
            }
        } catch {
            failed(error)
            return
        }
        generation += 1
        check()
    }

    /// Stops following and closes the file; ``start()`` goes on from where
    /// it stopped if the path still names the same file.
    public func stop() {
        guard watch != nil else { return }
        generation += 1
        watch?.close()
        watch = nil
        if let followed {
            resumePoint = (followed.identity, followed.offset)
            if isBusy { orphan = followed.file } else { access?.close(followed.file) }
        }
        followed = nil
        turns = nil
        needsCheck = false
    }

    /// Stops for good: ``start()`` does nothing afterwards. Idempotent.
    public func close() {
        isClosed = true
        stop()
    }

    /// Stops reading until ``resumeReading()``: what is appended meanwhile
    /// waits in the file.
    public func pauseReading() {
        isPaused = true
    }

    /// Reads again after ``pauseReading()``, from where it paused.
    public func resumeReading() {
        guard isPaused else { return }
        isPaused = false
        check()
    }

    // MARK: Delivery

    func deliver(_ piece: LineBuffer.Piece) {
        switch piece {
        case .line(let line):
            emitter.send(line)
        case .tooLong:
            let error = LoopError.lineTooLong("FileTail", limit: maximumLineLength.bytes ?? 0, context: path)
            logger.warning("FileTail: \(error)")
            errors.send(error)
        }
    }

    func failed(_ error: LoopError) {
        logger.error("FileTail(\(path)): \(error)")
        errors.send(error)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
