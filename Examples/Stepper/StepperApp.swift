// A stepper, in the pattern of Bow Arch's stepper component, on standard
// input: type +, -, reset or quit, and the app prints the count.
//
//   StepperState      the state: a value (Equatable, Codable)
//   StepperAction     the input: what the stepper accepts
//   dispatch          a pure function from a state and an action to the next state
//   render            the view: a pure function of the state
//   StepperComponent  the component: @Store holds the state, `input` takes
//                     actions, and one observer runs dispatch
//
// Everything that decides lives in the pure functions, tested without an
// app; the components only connect them to emitters.
import ComposeApp

/// The app: reads commands, sends the stepper the actions they name, and
/// prints what it shows.
@main
struct StepperApp: StartupComponent {
    /// The stepper; `--step N` (the configuration's `step`, 1 by default)
    /// sets how much `+` and `-` change the count.
    let stepper: StepperComponent
    /// Commands, one a line.
    let commands = StandardInput()
    /// Each line shown, printed: the count after each change, or help.
    let shown = Emitter<String>()

    init() {
        stepper = StepperComponent(step: max(1, Application.config.int(forKey: "step", default: 1)))
    }
}

extension StepperApp {
    var observers: Void {
        shown += { line in Application.print(line) }
        // At once with the initial state, then after each change (a command
        // that leaves the count as it was shows nothing).
        stepper.$state ++= { state in shown.send(render(state)) }
        commands += { line in
            if line == "quit" {
                Application.shutdown()
            } else if let action = StepperAction(command: line) {
                stepper.input.send(action)
            } else {
                shown.send("Type +, -, reset or quit.")
            }
        }
        commands.didReachEnd += { Application.shutdown() }
    }
}
