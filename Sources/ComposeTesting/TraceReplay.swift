/// What replaying a ``Trace`` into a ``TestApp`` found
/// (``TestApp/replay(_:inputs:)``): the outputs the recording holds, those
/// the app sent this time, and where they part.
public struct TraceReplay: Sendable, CustomStringConvertible {
    /// The recorded inputs sent into the app.
    public var inputsReplayed: Int
    /// The recorded outputs (the sends at the trace's paths that are not
    /// inputs), in order.
    public var expected: [Trace.Entry]
    /// What the app sent at those paths during the replay, in order (times
    /// since the app started).
    public var actual: [Trace.Entry]
    /// Why inputs could not be replayed (an emitter that is gone, a value
    /// recorded by its text only, ...); empty when all were.
    public var problems: [String]

    /// Whether the app did what the recording says: every recorded output
    /// again, in the same order, with the same values, nothing more, and
    /// every input replayed.
    public var matches: Bool {
        problems.isEmpty && firstDifference == nil
    }

    /// The index of the first output that differs (or that one side lacks);
    /// `nil` when they are the same.
    public var firstDifference: Int? {
        for index in 0..<max(expected.count, actual.count) {
            guard index < expected.count, index < actual.count, expected[index].isSameSend(as: actual[index]) else {
                return index
            }
        }
        return nil
    }

    /// A readable account of the difference (empty when it matches):
    ///
    /// ```text
    /// The replay differs from the recording at output 3 of 5:
    ///   recorded: 0.3s stepper-app.shown "count: 2"
    ///   replayed: 0.3s stepper-app.shown "count: 1"
    /// Outputs around it (recorded | replayed):
    ///   2  0.2s stepper-app.shown "count: 1"   |  0.2s stepper-app.shown "count: 1"
    /// ...
    /// ```
    public var description: String {
        var lines: [String] = problems.map { "Not replayed: \($0)" }
        if let index = firstDifference {
            let recorded = index < expected.count ? expected[index].description : "nothing (the recording ends here)"
            let replayed = index < actual.count ? actual[index].description : "nothing (the app sent no more)"
            lines.append("The replay differs from the recording at output \(index + 1) of \(expected.count) recorded (\(actual.count) replayed):")
            lines.append("  recorded: \(recorded)")
            lines.append("  replayed: \(replayed)")
            let range = max(0, index - 2)..<min(max(expected.count, actual.count), index + 3)
            lines.append("Outputs around it (recorded | replayed):")
            for row in range {
                let left = row < expected.count ? expected[row].description : "-"
                let right = row < actual.count ? actual[row].description : "-"
                let mark = row == index ? ">" : " "
                lines.append("\(mark) \(row + 1)  \(left)  |  \(right)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
