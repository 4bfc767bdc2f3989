/// What the stepper accepts (Bow Arch's "input"). Codable, so a recorded
/// session (`--trace-paths stepperApp.stepper.input`) replays.
enum StepperAction: String, Equatable, Sendable, CaseIterable, Codable {
    case increment
    case decrement
    case reset
}
