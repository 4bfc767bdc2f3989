import ComposeApp
@testable import ComposeStepper
import ComposeTesting
import Foundation
import Testing

// Tutorial.md (once the README), "Loop health, metrics and traces": a recording of the stepper
// example (as `--trace-file` writes it) replayed into a TestApp.

@MainActor
@Test func aRecordedStepperSessionReplays() throws {
    let recording = FileManager.default.temporaryDirectory
        .appendingPathComponent("compose-session-\(UUID().uuidString).jsonl").path
    try """
    {"compose-trace":1,"app":"stepperApp","paths":["stepperApp.stepper.input","stepperApp.stepper.state"]}
    {"time":0.5,"path":"stepperApp.stepper.input","text":"increment","value":"increment"}
    {"time":0.5,"path":"stepperApp.stepper.state","text":"StepperState(count: 1)","value":{"count":1}}
    {"time":1.25,"path":"stepperApp.stepper.input","text":"increment","value":"increment"}
    {"time":1.25,"path":"stepperApp.stepper.state","text":"StepperState(count: 2)","value":{"count":2}}

    """.write(toFile: recording, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: recording) }

    let app = TestApp(StepperApp.self)
    try app.expectReplay(of: recording, inputs: ["stepperApp.stepper.input"])

    // The same recording against a stepper that steps by 2 does not match.
    let changed = TestApp(StepperApp.self, config: ["step": 2])
    let replay = changed.replay(try Trace(contentsOf: recording), inputs: ["stepperApp.stepper.input"])
    #expect(!replay.matches)
}
