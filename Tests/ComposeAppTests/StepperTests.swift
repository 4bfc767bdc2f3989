import ComposeApp
@testable import ComposeStepper
import ComposeTesting
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

    @Test func commandsNameActionsAndNothingElse() {
        #expect(StepperAction(command: "+") == .increment)
        #expect(StepperAction(command: "-") == .decrement)
        #expect(StepperAction(command: "reset") == .reset)
        for other in ["", "++", " +", "Reset", "quit"] {
            #expect(StepperAction(command: other) == nil, "\(other)")
        }
    }

    @Test func theViewShowsTheCount() {
        #expect(render(StepperState(count: -2)) == "count: -2")
    }
}

/// The stepper example as a whole app: commands written on its standard
/// input, the lines it shows recorded and read from its standard output.
@MainActor
@Suite struct StepperAppTests {
    @Test func commandsStepTheCountAndTheAppShowsEachChange() throws {
        let app = TestApp(StepperApp.self)
        let root = try #require(app.root(as: StepperApp.self))
        #expect(root.shown.lastValue == "count: 0")
        let shown = Recorder(root.shown)

        app.standardInput.write("+\n+\n-\nbogus\n+\n")
        #expect(root.stepper.state == StepperState(count: 2))
        #expect(shown.values == ["count: 1", "count: 2", "count: 1", "Type +, -, reset or quit.", "count: 2"])

        app.standardInput.write("reset\nreset\nquit\n")
        // The second reset leaves the state as it was: nothing is shown.
        #expect(shown.values.suffix(1) == ["count: 0"])
        #expect(shown.count == 6)
        // What it showed went to the app's standard output, kept by the
        // test instead of printed.
        #expect(app.standardOutput.lines == ["count: 0"] + shown.values)
        #expect(app.exitStatus == 0)
        #expect(app.diagnostics.isEmpty)
    }

    @Test func theEndOfInputEndsTheApp() {
        let app = TestApp(StepperApp.self)
        app.standardInput.write("+\n")
        app.standardInput.close()
        #expect(app.exitStatus == 0)
    }

    /// Random commands: the app's state is the pure functions' fold of
    /// the actions, and it shows one line per command that changed it.
    @Test func theAppFollowsThePureDispatch() async {
        let commands = Gen.int(in: 0...3).map { ["+", "-", "reset", "what"][$0] }.array(of: 0...40)
        await propertyCheck(count: 100, input: commands) { commands in
            let app = TestApp(StepperApp.self)
            let root = app.root(as: StepperApp.self)!
            let shown = Recorder(root.shown)
            var model = StepperState()
            var expected: [String] = []
            for command in commands {
                guard let action = StepperAction(command: command) else {
                    expected.append("Type +, -, reset or quit.")
                    continue
                }
                let next = dispatch(model, action)
                if next != model { expected.append(render(next)) }
                model = next
            }
            app.standardInput.write(commands.map { $0 + "\n" }.joined())
            #expect(root.stepper.state == model)
            #expect(shown.values == expected, "commands \(commands)")
            #expect(app.standardOutput.lines == ["count: 0"] + expected)
        }
    }
}
