import Compose
public import Testing
import ComposePersistence
import FoundationEssentials

extension TestApp {
    /// Replays a trace recorded from a running app (ComposeApp's
    /// `TraceRecorder`, `--trace-file`) into this app, and compares what
    /// the app does with what the recording says it did: production
    /// traffic as a regression test.
    ///
    /// The sends at `inputs` (emitter paths, or component paths for every
    /// emitter below) are sent again into the same emitters, each at its
    /// recorded time on the virtual clock (from the app's current time).
    /// Every other recorded send is an output: the app's sends at the
    /// trace's paths (inputs excepted) since it started are compared with
    /// them, in order, by value (JSON) or, for a value that is not
    /// `Codable`, by its text. Times are not compared. Run it on a fresh
    /// app, like the one recorded, so that the startup's outputs line up.
    ///
    /// ```swift
    /// let app = TestApp(StepperApp.self)
    /// let replay = try app.replay(Trace(contentsOf: "stepper.jsonl"), inputs: ["stepper-app.commands"])
    /// #expect(replay.matches, "\(replay)")
    /// ```
    ///
    /// What replays: an input whose value was recorded as JSON, into an
    /// emitter whose value type is `Decodable`, and signals. Anything else
    /// is listed in ``TraceReplay/problems`` (and makes it not match).
    ///
    /// - Parameters:
    ///   - trace: The recording.
    ///   - inputs: The paths whose sends are replayed rather than compared.
    /// Not reentrant, as ``run(_:)``.
    ///
    /// - Returns: What was recorded and what the app did.
    public func replay(_ trace: Trace, inputs: [String]) -> TraceReplay {
        drive("TestApp.replay(_:inputs:)") { replayInputs(of: trace, inputs: inputs) }
    }

    private func replayInputs(of trace: Trace, inputs: [String]) -> TraceReplay {
        let isInput = { (path: String) in inputs.contains { Self.path(path, isAtOrBelow: $0) } }
        let isRecorded = { (path: String) in trace.paths.isEmpty || trace.paths.contains { Self.path(path, isAtOrBelow: $0) } }
        let firstEvent = events.count
        // The outputs sent from now on carry their values as JSON.
        captureValues(atPaths: trace.paths)
        var problems: [String] = []
        var replayed = 0
        let origin = now
        for entry in trace.entries where isInput(entry.path) {
            let due = origin + .nanoseconds(Int64((entry.time * 1e9).rounded()))
            if due > now { moveTime(by: due - now) }
            guard let tree else {
                problems.append("\(entry): the app has no tree (it did not start, or it ended).")
                break
            }
            let outcome = context.run {
                tree.sendReplayed(toEmitterAt: entry.path) { type in try Self.decode(entry, as: type) }
            }
            drainDue()
            switch outcome {
            case .sent: replayed += 1
            case .noEmitter: problems.append("\(entry): no emitter has this path in the app.")
            case .notDecodable(let type): problems.append("\(entry): the emitter's values (\(type)) are not Decodable.")
            case .decodingFailed(let reason): problems.append("\(entry): \(reason)")
            }
        }
        // What the app does after the last input, up to the recording's end.
        if let end = trace.entries.last.map({ origin + .nanoseconds(Int64(($0.time * 1e9).rounded())) }), end > now {
            moveTime(by: end - now)
        }
        drainDue()
        let expected = trace.entries.filter { !isInput($0.path) }
        let actual = events.filter { $0.kind == .sent && isRecorded($0.path) && !isInput($0.path) }.map(Self.entry)
        // The replay asserted the events it compared.
        if events.count > firstEvent { events.skipAll() }
        return TraceReplay(inputsReplayed: replayed, expected: expected, actual: actual, problems: problems)
    }

    /// Replays `trace` (``replay(_:inputs:)``) and fails the test with the
    /// difference when the app does not do what was recorded.
    ///
    /// ```swift
    /// try app.expectReplay(of: "Tests/Traces/stepper.jsonl", inputs: ["stepper-app.commands"])
    /// ```
    ///
    /// - Throws: ``TraceError`` when the file cannot be read.
    @discardableResult
    public func expectReplay(of file: String, inputs: [String], sourceLocation: SourceLocation = #_sourceLocation) throws(TraceError) -> TraceReplay {
        let result = replay(try Trace(contentsOf: file), inputs: inputs)
        if !result.matches {
            Issue.record(Comment(rawValue: "The app did not do what \(file) recorded.\n\(result)"), sourceLocation: sourceLocation)
        }
        return result
    }

    /// Whether sends at this app's event paths carry JSON values
    /// (`AppEvent.json`) for `paths` from now on: call it in `setUp` so
    /// that the startup's sends carry them too (``replay(_:inputs:)``
    /// compares by text where they do not).
    public func captureValues(atPaths paths: [String]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        context.captureValues(atPaths: paths.isEmpty ? [""] : paths) { value in
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// A recorded event as a trace entry (time since the app started).
    private static func entry(_ event: AppEvent) -> Trace.Entry {
        let value = event.json.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        return Trace.Entry(time: Double(event.time / .nanoseconds(1)) / 1e9, path: event.path, text: event.value, value: value)
    }

    private static func decode(_ entry: Trace.Entry, as type: any Decodable.Type) throws -> Any {
        guard let value = entry.value else {
            throw TraceError(entry.text == nil ? "no value was recorded" : "its value was recorded as text only (not Encodable)")
        }
        return try decodeValue(type, from: JSONEncoder().encode(value))
    }

    private static func decodeValue<T: Decodable>(_ type: T.Type, from data: Data) throws -> Any {
        try JSONDecoder().decode(T.self, from: data)
    }

    /// `app.a` is at or below `app.a` and `app`, not below `app.ab`.
    private static func path(_ path: String, isAtOrBelow prefix: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        guard let next = path.dropFirst(prefix.count).first else { return true }
        return prefix.isEmpty || next == "." || next == "["
    }
}
