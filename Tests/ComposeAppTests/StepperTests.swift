import ComposeApp
import ComposeTerminal
import ComposeTerminalTesting
@testable import ComposeStepper
import ComposeTesting
import Foundation
import PropertyBased
import Testing

/// The stepper example's pure functions, without an app.
@Suite struct StepperDispatchTests {
    @Test(arguments: [
        (StepperAction.increment, 3, 4),
        (.decrement, 3, 2),
        (.decrement, 0, -1),
        (.reset, 3, 0),
        (.reset, 0, 0),
    ])
    func eachActionGivesTheNextState(_ action: StepperAction, _ before: Int, _ after: Int) {
        #expect(dispatch(StepperState(count: before), action) == StepperState(count: after))
    }

    /// Recorded and replayed by name (`--trace-paths stepperApp.stepper.input`).
    @Test func actionsAreCodedByName() throws {
        for action in StepperAction.allCases {
            let json = try JSONEncoder().encode(action)
            #expect(String(decoding: json, as: UTF8.self) == "\"\(action.rawValue)\"")
            #expect(try JSONDecoder().decode(StepperAction.self, from: json) == action)
        }
    }

    @Test func theViewShowsTheCount() {
        #expect(render(StepperState(count: -2)) == "count: -2")
    }
}

/// The stepper example as a whole app on TestApp's virtual terminal: keys
/// pressed, the screen read as a real terminal would show it.
@MainActor
@Suite struct StepperAppTests {
    @Test func keysStepTheCountAndTheScreenShowsIt() throws {
        let app = TestApp(StepperApp.self)
        let root = try #require(app.root(as: StepperApp.self))
        #expect(app.screenLines.first == "count: 0")

        app.press("+", times: 2)
        app.press("-")
        app.press("x")      // no binding: nothing changes
        #expect(root.stepper.state == StepperState(count: 1))
        #expect(app.screen == Self.screen(count: 1))

        app.press("r")
        #expect(app.screenLines.first == "count: 0")
        app.press("q")
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
        #expect(app.diagnostics.isEmpty)
    }

    /// The whole screen: the count at the top, the help line at the bottom:
    /// the root's binding, the stepper's (the hidden synonyms left out),
    /// then the runtime's own.
    static func screen(count: Int) -> String {
        (["count: \(count)"] + Array(repeating: "", count: 22) + ["q quit  + more  - less  r reset  Ctrl+C quit"]).joined(separator: "\n")
    }

    @Test func theArrowsAndVimKeysAreHiddenSynonyms() {
        let app = TestApp(StepperApp.self)
        app.press(.up)
        app.press("k")
        app.press(.down)
        #expect(app.screenLines.first == "count: 1")
        app.press("j", times: 3)
        #expect(app.screenLines.first == "count: -2")
    }

    @Test func ctrlCQuitsAsTheRuntimesDefault() {
        let app = TestApp(StepperApp.self)
        app.press(.ctrl("c"))
        #expect(app.exitStatus == 0)
        #expect(app.isTerminalRestored)
    }

    @Test func theStepComesFromTheConfiguration() {
        let app = TestApp(StepperApp.self, config: ["step": 5])
        app.press("-")
        #expect(app.screenLines.first == "count: -5")
    }

    /// Random keys: the app's state is the pure functions' fold of the
    /// actions they name, and its first line is `render` of that state.
    @Test func theAppFollowsThePureDispatch() async {
        let keys: [(KeyEvent, StepperAction?)] = [("+", .increment), ("-", .decrement), ("r", .reset), ("x", nil), (.up, .increment), ("j", .decrement)]
        await propertyCheck(count: 40, input: Gen.int(in: 0...(keys.count - 1)).array(of: 0...30)) { presses in
            let app = TestApp(StepperApp.self)
            let root = app.root(as: StepperApp.self)!
            var model = StepperState()
            for index in presses {
                app.press(keys[index].0)
                if let action = keys[index].1 { model = dispatch(model, action) }
            }
            #expect(root.stepper.state == model)
            #expect(app.screenLines.first == render(model), "presses \(presses)")
        }
    }
}
