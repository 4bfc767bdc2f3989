/// The stepper's state: a value, replaced by ``dispatch(_:_:)`` as a whole.
struct StepperState: Equatable, Codable {
    var count = 0
}
