// A stepper, in the pattern of Bow Arch's stepper component, as a terminal
// app: + and - step the count, r resets it, q quits.
//
//   StepperState      the state: a value (Equatable, Codable)
//   StepperAction     the input: what the stepper accepts
//   dispatch          a pure function from a state and an action to the next state
//   render            the view's text: a pure function of the state
//   StepperComponent  the component: @Store holds the state, `input` takes
//                     actions, and one observer runs dispatch; its view and
//                     key bindings (StepperComponent+View.swift) show the
//                     state and send actions
//
// Everything that decides lives in the pure functions, tested without an
// app; the components only connect them to emitters and keys. In a pipe
// the keys come from standard input and the app prints the rows of its
// screen that changed (`count: N`) as plain lines.
import ComposeApp

/// The app: the stepper, and the keys that quit.
@main
struct StepperApp: StartupComponent, PassiveComponent {
    /// The stepper; `--step N` (the configuration's `step`, 1 by default)
    /// sets how much `+` and `-` change the count.
    let stepper: StepperComponent

    init() {
        stepper = StepperComponent(step: max(1, Application.config.int(forKey: "step", default: 1)))
    }
}
