// The stepper's logic, as pure functions (Bow Arch's dispatcher and view):
// no emitter, no app, nothing but values in and a value out.

/// The state after `action`.
///
/// - Parameters:
///   - state: The state before.
///   - action: What happened.
/// - Returns: The next state.
func dispatch(_ state: StepperState, _ action: StepperAction) -> StepperState {
    switch action {
    case .increment: StepperState(count: state.count + 1)
    case .decrement: StepperState(count: state.count - 1)
    case .reset: StepperState()
    }
}

/// What the stepper shows for `state`.
func render(_ state: StepperState) -> String {
    "count: \(state.count)"
}
