/// What the stepper accepts (Bow Arch's "input").
enum StepperAction: Equatable, Sendable, CaseIterable {
    case increment
    case decrement
    case reset

    /// The action a typed command names: `+`, `-` or `reset`; `nil` for
    /// anything else.
    init?(command: String) {
        switch command {
        case "+": self = .increment
        case "-": self = .decrement
        case "reset": self = .reset
        default: return nil
        }
    }
}
