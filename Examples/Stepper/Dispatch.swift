// The stepper's logic, as pure functions (Bow Arch's dispatcher and view):
// no emitter, no app, nothing but values in and a value out.

/// The state after `action`.
///
/// - Parameters:
///   - state: The state before.
///   - action: What happened.
///   - step: How much `+` and `-` change the count.
/// - Returns: The next state.
func dispatch(_ state: StepperState, _ action: StepperAction, step: Int = 1) -> StepperState {
    switch action {
    case .increment: StepperState(count: state.count + step)
    case .decrement: StepperState(count: state.count - step)
    case .reset: StepperState()
    }
}

/// What the stepper shows for `state`: the one line of its view (and so
/// the line an app in a pipe prints after each change).
func render(_ state: StepperState) -> String {
    "count: \(state.count)"
}
