public import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Records the sends of chosen emitters of a running app to a JSON Lines
/// file, so that what happened in production can be replayed in a test
/// (ComposeTesting's `TestApp.replay(_:inputs:)`).
///
/// ```swift
/// let recorder = try TraceRecorder(file: "/tmp/stepper.jsonl",
///                                  paths: ["stepper-app.commands", "stepper-app.shown"],
///                                  in: context)
/// // ... the app runs ...
/// recorder.stop()           // or let the app exit: the file is complete
/// ```
///
/// Any app records when started with `--trace-file FILE` and
/// `--trace-paths PATH,PATH` (or the configuration keys `trace.file` and
/// `trace.paths`: `CHAT_TRACE_FILE`, ...); without paths it records every
/// emitter of the root's subtree.
///
/// **The file.** The first line says what it is:
/// `{"compose-trace":1,"app":"stepper-app","paths":["stepper-app.commands"]}`;
/// then one line per send, in order:
/// `{"time":1.25,"path":"stepper-app.commands","text":"+","value":"+"}` —
/// `time` in seconds since the recording began, `path` the emitter's event
/// path (see `AppEvent`), `text` the value described (absent for a signal),
/// `value` the value as JSON.
///
/// **What replays.** A send whose value is `Encodable` (so JSON) is
/// recorded with its `value`; a signal (`Void`) needs none. Both replay
/// into an emitter whose value type is `Decodable` (or `Void`). A value
/// that is not `Encodable` (a connection, a closure) is recorded by its
/// `text` only: such a send can be compared as an output, by its text,
/// never replayed as an input.
///
/// Recording holds the app's event tracing on (see
/// `Compose.AppContext.tracesEvents`): every emitter's send then costs a
/// branch more, and a recorded one an encoding and a line of the file.
/// Lines are buffered and written at most 200 ms after their send (and
/// when 64 KiB are waiting), and at ``stop()`` or the app's exit.
@MainActor
public final class TraceRecorder {
    /// The file recorded to.
    public let file: String
    /// The emitter paths recorded (and those below them); empty: all.
    public let paths: [String]
    /// Whether the recorder still records (until ``stop()`` or a write
    /// failure, reported as ``Compose/Diagnostic/Code/traceRecordingFailed``).
    public private(set) var isRecording = true
    /// How many sends were recorded.
    public private(set) var recordedCount = 0

    private weak var context: AppContext?
    private var descriptor: Int32
    private var buffer: [UInt8] = []
    private var subscription: Subscription?
    private var pendingFlush: ScheduledAction?
    private let start: Duration

    /// Starts recording the sends at `paths` (and below them) of the app
    /// of `context` to `file`, replacing what the file held.
    ///
    /// - Parameters:
    ///   - file: The JSON Lines file (created with mode 0600).
    ///   - paths: Emitter paths, as events name them
    ///     (`stepper-app.commands`), or component paths (`chat.server`:
    ///     every emitter below); empty records every send.
    ///   - context: The app's context.
    /// - Throws: ``LoopError`` from `open` when the file cannot be created.
    public init(file: String, paths: [String], in context: AppContext) throws(LoopError) {
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LoopError("open", errno: errno, context: file) }
        self.file = file
        self.paths = paths
        self.descriptor = descriptor
        self.context = context
        start = context.scheduler?.now ?? .zero
        let header = "{\"compose-trace\":1,\"app\":\(Self.quoted(context.name)),\"paths\":[\(paths.map(Self.quoted).joined(separator: ","))]}\n"
        buffer.append(contentsOf: header.utf8)
        context.captureValues(atPaths: paths.isEmpty ? [""] : paths) { value in
            try? TraceValueEncoder.encode(value)
        }
        context.holdTracing()
        subscription = context.events.observe { [unowned self] event in self.record(event) }
        context.shutdown.willExit.observe { [weak self] in self?.stop() }
    }

    isolated deinit {
        stop()
    }

    /// Writes what is buffered, stops recording and closes the file.
    /// Idempotent.
    public func stop() {
        guard isRecording else { return }
        flush()
        finish()
    }

    /// Writes the lines buffered so far.
    public func flush() {
        if let pendingFlush { context?.scheduler?.cancel(pendingFlush) }
        pendingFlush = nil
        guard isRecording, !buffer.isEmpty else { return }
        let failure: Int32? = buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        buffer.removeAll(keepingCapacity: true)
        if let failure {
            let error = LoopError("write", errno: failure, context: file)
            context?.report(Diagnostic(.traceRecordingFailed, "Cannot write the trace \(file): \(error). Recording stopped."))
            finish()
        }
    }

    private func finish() {
        isRecording = false
        subscription?.cancel()
        subscription = nil
        if let context {
            context.captureValues(atPaths: [], encode: nil)
            context.releaseTracing()
        }
        context = nil
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    private func record(_ event: AppEvent) {
        guard isRecording, event.kind == .sent, covers(event.path) else { return }
        recordedCount += 1
        var line = "{\"time\":\(Self.seconds(event.time - start)),\"path\":\(Self.quoted(event.path))"
        if let text = event.value { line += ",\"text\":\(Self.quoted(text))" }
        if let json = event.json { line += ",\"value\":\(json)" }
        line += "}\n"
        buffer.append(contentsOf: line.utf8)
        if buffer.count >= 64 * 1024 {
            flush()
        } else if pendingFlush == nil, let scheduler = context?.scheduler {
            pendingFlush = scheduler.schedule(after: .milliseconds(200)) { [weak self] in
                self?.pendingFlush = nil
                self?.flush()
            }
        }
    }

    private func covers(_ path: String) -> Bool {
        paths.isEmpty || paths.contains { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }
    }

    /// `1.25` (seconds, up to nanoseconds).
    static func seconds(_ time: Duration) -> String {
        let (seconds, attoseconds) = time.components
        guard attoseconds != 0 else { return "\(seconds)" }
        var fraction = String(attoseconds / 1_000_000_000)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)"
    }

    /// `text` as a JSON string (escaped as the inspection protocol's).
    static func quoted(_ text: String) -> String {
        InspectionJSON.string(text).text
    }
}

extension TraceRecorder {
    /// Starts the recording the app's configuration asks for:
    /// `trace.file` (`--trace-file FILE`) and `trace.paths`
    /// (`--trace-paths a,b`, comma-separated). The recorder lives as long
    /// as the app (the context keeps it); a file that cannot be opened is
    /// reported as ``Compose/Diagnostic/Code/traceRecordingFailed``.
    static func startFromConfiguration(in context: AppContext) {
        let configuration = context.configuration
        guard let file = configuration.string(forKey: "trace.file"), !file.isEmpty else { return }
        // `--trace-paths a,b`, `--trace-paths a b`, `X_TRACE_PATHS=a,b`, a
        // file's array or its comma-separated string: all read as a list.
        let listed = configuration.stringArray(forKey: "trace.paths") ?? []
        let paths = listed.flatMap { $0.split(separator: ",") }
            .map { String($0.filter { !$0.isWhitespace }) }.filter { !$0.isEmpty }
        do {
            let recorder = try TraceRecorder(file: file, paths: paths, in: context)
            // The shutdown's willExit observer stops it; this keeps it alive until then.
            context.shutdown.willExit.observe { withExtendedLifetime(recorder) {} }
            context.logger.info("Recording the sends of \(paths.isEmpty ? "every emitter" : paths.joined(separator: ", ")) to \(file).")
        } catch {
            context.report(Diagnostic(.traceRecordingFailed, "Cannot record a trace to \(file): \(error)."))
        }
    }
}
