import ComposeApp
import ComposePersistence
@testable import ComposeStepper
import ComposeTesting
import Foundation
import Testing

/// Production traffic as a regression test: a session of the stepper
/// example, recorded by the real process (`--trace-file`), replayed into a
/// fresh TestApp.
@Suite struct TraceReplayTests {
    static let paths = ["stepperApp.commands", "stepperApp.shown", "stepperApp.stepper.state"]

    /// Runs the stepper as a process on `commands`, recording `paths`.
    static func record(_ commands: String) async throws -> (trace: Trace, text: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("compose-trace-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let stepper = try FixtureProcess(
            executable: "ComposeStepper",
            arguments: ["--trace-file", file, "--trace-paths", paths.joined(separator: ",")]
        )
        try stepper.writeStdin(commands)
        #expect(await stepper.waitForExit() == 0, "\(stepper.transcript)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return (try Trace(contentsOf: file), text)
    }

    @Test func aRecordedSessionReplaysIntoAFreshAppAndMatches() async throws {
        let (trace, text) = try await Self.record("+\n+\n-\nbogus\nreset\n+\nquit\n")
        #expect(trace.app == "stepperApp")
        #expect(trace.paths == Self.paths)
        // The file: a header, then one line per send, values as JSON.
        let lines = text.split(separator: "\n")
        #expect(lines.first == #"{"compose-trace":1,"app":"stepperApp","paths":["stepperApp.commands","stepperApp.shown","stepperApp.stepper.state"]}"#)
        #expect(lines.contains { $0.hasPrefix(#"{"time":"#) && $0.hasSuffix(#","path":"stepperApp.stepper.state","text":"StepperState(count: 1)","value":{"count":1}}"#) }, "\(text)")
        let commands = trace.entries.filter { $0.path == "stepperApp.commands" }.compactMap(\.text)
        #expect(commands == ["+", "+", "-", "bogus", "reset", "+", "quit"])

        let replay = await MainActor.run {
            let app = TestApp(StepperApp.self)
            return app.replay(trace, inputs: ["stepperApp.commands"])
        }
        #expect(replay.inputsReplayed == 7)
        #expect(replay.expected.count == 12, "\(replay.expected)")
        #expect(replay.matches, "\(replay)")
    }

    @Test func aChangedBehaviourFailsTheReplayWithAReadableDifference() async throws {
        let (trace, _) = try await Self.record("+\n+\nquit\n")
        // The deliberate change: the same app, stepping by 2.
        let replay = await MainActor.run {
            let app = TestApp(StepperApp.self, config: ["step": 2])
            return app.replay(trace, inputs: ["stepperApp.commands"])
        }
        #expect(!replay.matches)
        // "count: 0" shown at the start, then the first step's state:
        // recorded as 1, replayed as 2.
        #expect(replay.firstDifference == 1, "\(replay)")
        let report = replay.description
        #expect(report.contains("The replay differs from the recording at output 2 of 5 recorded (5 replayed):"), "\(report)")
        #expect(report.contains(#"  recorded: "#) && report.contains(#"stepperApp.stepper.state {"count":1}"#), "\(report)")
        #expect(report.contains(#"  replayed: "#) && report.contains(#"stepperApp.stepper.state {"count":2}"#), "\(report)")
    }

    @Test func anInputThatCannotBeReplayedIsNamed() async throws {
        let trace = Trace(app: "stepperApp", paths: ["stepperApp"], entries: [
            Trace.Entry(time: 0.1, path: "stepperApp.nowhere", text: "+", value: "+"),
            Trace.Entry(time: 0.2, path: "stepperApp.stepper.input", text: "increment"),
        ])
        let replay = await MainActor.run {
            TestApp(StepperApp.self).replay(trace, inputs: ["stepperApp.nowhere", "stepperApp.stepper.input"])
        }
        #expect(replay.inputsReplayed == 0)
        #expect(replay.problems.count == 2, "\(replay.problems)")
        #expect(replay.problems.first?.contains("no emitter has this path") == true, "\(replay.problems)")
        #expect(replay.problems.last?.contains("not Decodable") == true, "\(replay.problems)")
        #expect(!replay.matches)
    }
}
