import ComposeApp

/// The stepper as a component: its state in a store, the actions it
/// accepts on ``input``, and ``dispatch(_:_:)`` between them. Its view
/// (StepperComponent+View.swift) shows the state and its keys send actions.
struct StepperComponent: Component {
    /// The state; `$state` sends it after each change.
    @Store var state = StepperState()
    /// The actions, each applied by ``dispatch(_:_:step:)``.
    let input = Emitter<StepperAction>()
    /// How much `+` and `-` change the count.
    var step = 1
}

extension StepperComponent {
    var observers: Void {
        input += { action in
            state = dispatch(state, action, step: step)
        }
    }
}
