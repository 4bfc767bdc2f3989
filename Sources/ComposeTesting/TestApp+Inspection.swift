import ComposeApp

extension TestApp {
    /// Answers an inspection request as the app's inspection socket would
    /// (see docs/inspection-protocol.md), on virtual time: what `compose
    /// inspect PID tree` prints for `"tree"`, the JSON line for
    /// `"tree --json"` or a JSON request.
    ///
    /// ```swift
    /// let app = TestApp(ChatApp.self, config: ["inspectionAllowsChanges": true])
    /// let peer = try app.connect(port: 7070)
    /// print(app.inspect("tree"))                 // the component tree, 80 columns
    /// print(app.inspect("tree --width 0"))       // lines never cut
    /// let json = app.inspect(#"{"v":1,"command":"tree"}"#)
    /// app.inspect("open server/sessions/1/lobby")
    /// ```
    ///
    /// `open` changes the app: as in a running app, it is refused
    /// (`notAllowed`) unless the app's `StartupConfiguration` or its
    /// configuration allows changes (`inspectionAllowsChanges`).
    ///
    /// A request the app cannot answer gives `error: MESSAGE (CODE)` (for a
    /// JSON request, the protocol's error line). For `follow`, which
    /// streams, use ``inspector()``. Not reentrant, as ``TestApp/run(_:)``.
    ///
    /// - Parameter request: A request line: words (`tree`, `loop`,
    ///   `open ROUTE`, `counting off`, each with an optional `--json`) or
    ///   the protocol's JSON.
    /// - Returns: The reply's lines, joined by newlines.
    @discardableResult
    public func inspect(_ request: String) -> String {
        drive("TestApp.inspect(_:)") {
            let inspector = inspector()
            inspector.send(request)
            inspector.close()
            drainDue()
            return inspector.lines.joined(separator: "\n")
        }
    }

    /// An inspection session that stays open, for `follow`: every reply
    /// and followed event is in its ``TestInspector/lines``.
    ///
    /// ```swift
    /// let inspector = app.inspector()
    /// inspector.send("follow app.server")
    /// app.run { ... }                            // something sends
    /// #expect(inspector.lines.contains { $0.contains("app.server.sessions.1.room.say sent") })
    /// inspector.close()
    /// ```
    public func inspector() -> TestInspector {
        TestInspector(context: context)
    }
}

/// An inspection client of a `TestApp` (``TestApp/inspector()``): request
/// lines in, reply lines collected, as through the app's inspection
/// socket.
@MainActor
public final class TestInspector {
    /// What a person reads of each reply, in order: the text of a reply to
    /// a request in words (a multi-line reply is several lines), `error:
    /// MESSAGE (CODE)` for an error, else the JSON line.
    public private(set) var lines: [String] = []
    /// Each reply's JSON line, as the socket sends it.
    public private(set) var jsonLines: [String] = []
    private var channel: InspectionChannel?

    init(context: AppContext) {
        channel = InspectionChannel(context: context) { [weak self] reply in
            self?.jsonLines.append(reply.json)
            self?.lines += reply.readable.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// Sends one request line (words or JSON).
    public func send(_ request: String) {
        channel?.send(request)
    }

    /// Ends the session; a `follow` stops.
    public func close() {
        channel?.close()
        channel = nil
    }

    isolated deinit {
        channel?.close()
    }
}
