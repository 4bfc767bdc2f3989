import ComposeApp
import ComposePersistence
@testable import ComposeStepper
import ComposeTesting
import Foundation
import Testing

/// Production traffic as a regression test: a session of the stepper
/// example, recorded by the real process (`--trace-file`) with keys on a
/// pipe, replayed into a fresh TestApp.
@Suite struct TraceReplayTests {
    static let paths = ["stepperApp.stepper.input", "stepperApp.stepper.state"]

    /// Runs the stepper as a process with `keys` typed on its standard
    /// input (a pipe: the keys are read as bytes, and the screen's changed
    /// rows printed as plain lines), recording `paths`. Each key is typed
    /// once the app printed what the one before changed: keys that arrive
    /// in one read are handled in one loop turn, which draws one frame.
    static func record(_ keys: [Character]) async throws -> (trace: Trace, text: String, output: [String]) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("compose-trace-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let stepper = try FixtureProcess(
            executable: "ComposeStepper",
            arguments: ["--trace-file", file, "--trace-paths", paths.joined(separator: ",")]
        )
        try await stepper.waitFor("count: 0")
        var model = StepperState()
        var shown = 1
        for key in keys {
            try stepper.writeStdin(String(key))
            let action: StepperAction? = ["+": .increment, "-": .decrement, "r": .reset][key]
            guard let action, dispatch(model, action) != model else { continue }
            model = dispatch(model, action)
            shown += 1
            let expected = shown
            let printed = await stepper.output.waitUntil(timeout: FixtureProcess.failureTimeout) { lines in
                lines.filter { $0.hasPrefix("count: ") }.count >= expected
            }
            #expect(printed, "\(stepper.transcript)")
        }
        #expect(await stepper.waitForExit() == 0, "\(stepper.transcript)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return (try Trace(contentsOf: file), text, stepper.output.lines)
    }

    @Test func aRecordedSessionReplaysIntoAFreshAppAndMatches() async throws {
        // x is no key of the stepper's: nothing happens.
        let (trace, text, output) = try await Self.record(Array("++-xr+q"))
        #expect(trace.app == "stepperApp")
        #expect(trace.paths == Self.paths)
        // The file: a header, then one line per send, values as JSON.
        let lines = text.split(separator: "\n")
        #expect(lines.first == #"{"compose-trace":1,"app":"stepperApp","paths":["stepperApp.stepper.input","stepperApp.stepper.state"]}"#)
        #expect(lines.contains { $0.hasPrefix(#"{"time":"#) && $0.hasSuffix(#","path":"stepperApp.stepper.state","text":"StepperState(count: 1)","value":{"count":1}}"#) }, "\(text)")
        #expect(lines.contains { $0.hasSuffix(#","path":"stepperApp.stepper.input","text":"increment","value":"increment"}"#) }, "\(text)")
        let actions = trace.entries.filter { $0.path == "stepperApp.stepper.input" }.compactMap(\.text)
        #expect(actions == ["increment", "increment", "decrement", "reset", "increment"])
        // In a pipe the app printed its screen's changed rows as plain
        // lines: the count as render(_:) writes it after each change, the
        // help line once, never an escape sequence.
        #expect(output.filter { $0.hasPrefix("count: ") } == ["count: 0", "count: 1", "count: 2", "count: 1", "count: 0", "count: 1"], "\(output)")
        #expect(output.filter { $0.contains("+ more") }.count == 1, "\(output)")
        #expect(!output.contains { $0.contains("\u{1B}") }, "\(output)")

        let replay = await MainActor.run {
            let app = TestApp(StepperApp.self)
            return app.replay(trace, inputs: ["stepperApp.stepper.input"])
        }
        #expect(replay.inputsReplayed == 5)
        #expect(replay.expected.count == 5, "\(replay.expected)")
        #expect(replay.matches, "\(replay)")
    }

    @Test func aChangedBehaviourFailsTheReplayWithAReadableDifference() async throws {
        let (trace, _, _) = try await Self.record(Array("++q"))
        // The deliberate change: the same app, stepping by 2.
        let replay = await MainActor.run {
            let app = TestApp(StepperApp.self, config: ["step": 2])
            return app.replay(trace, inputs: ["stepperApp.stepper.input"])
        }
        #expect(!replay.matches)
        // The first step's state: recorded as 1, replayed as 2.
        #expect(replay.firstDifference == 0, "\(replay)")
        let report = replay.description
        #expect(report.contains("The replay differs from the recording at output 1 of 2 recorded (2 replayed):"), "\(report)")
        #expect(report.contains(#"  recorded: "#) && report.contains(#"stepperApp.stepper.state {"count":1}"#), "\(report)")
        #expect(report.contains(#"  replayed: "#) && report.contains(#"stepperApp.stepper.state {"count":2}"#), "\(report)")
    }

    /// A component whose input carries values that cannot be decoded.
    struct Clicker: Component {
        struct Click: Equatable {}
        let clicks = Emitter<Click>()
        var observers: Void { None }
    }

    @Test func anInputThatCannotBeReplayedIsNamed() async throws {
        let trace = Trace(app: "clicker", paths: ["clicker"], entries: [
            Trace.Entry(time: 0.1, path: "clicker.nowhere", text: "+", value: "+"),
            Trace.Entry(time: 0.2, path: "clicker.clicks", text: "Click()"),
        ])
        let replay = await MainActor.run {
            TestApp(root: Clicker()).replay(trace, inputs: ["clicker.nowhere", "clicker.clicks"])
        }
        #expect(replay.inputsReplayed == 0)
        #expect(replay.problems.count == 2, "\(replay.problems)")
        #expect(replay.problems.first?.contains("no emitter has this path") == true, "\(replay.problems)")
        #expect(replay.problems.last?.contains("not Decodable") == true, "\(replay.problems)")
        #expect(!replay.matches)
    }
}
