import ComposeApp
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

