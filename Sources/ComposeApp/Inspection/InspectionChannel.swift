import Compose

/// An inspection session without a socket, for a test context
/// (ComposeTesting's `TestApp.inspect(_:)` and `TestInspector`): request
/// lines in, reply lines out, answered exactly as the socket server
/// answers them.
@MainActor
package final class InspectionChannel {
    /// One reply: the protocol's JSON line, and what a person reads of it
    /// (see ``readable``).
    package struct Reply: Sendable, Equatable {
        /// The JSON line, as the socket would send it.
        package let json: String
        /// The reply as `compose inspect` prints it: the `text` member of
        /// a text reply, `error: MESSAGE (CODE)` for an error, else the
        /// JSON line.
        package let readable: String
    }

    private let context: AppContext
    private let output: Output
    private let session: InspectionSession

    @MainActor
    private final class Output: InspectionOutput {
        let deliver: @MainActor (Reply) -> Void
        var queuedBytes: Int { 0 }

        init(_ deliver: @escaping @MainActor (Reply) -> Void) {
            self.deliver = deliver
        }

        func write(_ reply: InspectionJSON) {
            deliver(Reply(json: reply.text, readable: InspectionChannel.readable(reply)))
        }
    }

    /// A session with `context`'s app; `deliver` gets each reply.
    package init(context: AppContext, deliver: @escaping @MainActor (Reply) -> Void) {
        self.context = context
        output = Output(deliver)
        session = InspectionSession(inspection: context.inspection, output: output)
    }

    /// Answers a request line (JSON or words), with the app's context as
    /// ``AppContext/current``.
    package func send(_ request: String) {
        context.run { session.receive(request) }
    }

    /// Ends the session (stops following).
    package func close() {
        session.end()
    }

    /// What a person reads of `reply` (see ``Reply/readable``).
    static func readable(_ reply: InspectionJSON) -> String {
        if let text = reply["text"]?.stringValue { return text }
        if reply["ok"]?.boolValue == false, let error = reply["error"] {
            return "error: \(error["message"]?.stringValue ?? "") (\(error["code"]?.stringValue ?? ""))"
        }
        return reply.text
    }
}
