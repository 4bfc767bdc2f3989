extension EmitterProtocol {
    /// An emitter of the validity of the states this one sends: each state
    /// is checked by `validation`, and the result sent when it differs from
    /// the previous one.
    ///
    /// ```swift
    /// struct SignUpForm: Component {
    ///     @Store var state = SignUp()
    ///     let canSubmit = Emitter<Bool>()
    /// }
    ///
    /// extension SignUpForm {
    ///     var observers: Void {
    ///         $state.validated(by: signUpRules) ++= { result in
    ///             canSubmit.send(result.isValid)
    ///             showErrors(result.errors)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// A derived emitter (see ``EmitterProtocol``, "Derived emitters"): it
    /// observes this emitter from the moment it is created. If this emitter
    /// already has a last value, the result starts with that state's
    /// validation as its last value, without sending it, so `++=` replays
    /// the current validity; later states are compared with it. Every state
    /// sent is validated once, however many observers the result has.
    ///
    /// - Parameter validation: The rules the states must keep.
    /// - Returns: An emitter of validation results, without consecutive
    ///   equal ones.
    public func validated(by validation: Validation<Value>) -> Emitter<ValidationResult<Value>> {
        let start = emitter.lastValue.map { validation.validate($0) }
        return derive(primedWith: start) { output in
            var previous = start
            return { state in
                let result = validation.validate(state)
                if let previous, previous == result { return }
                previous = result
                output.send(result)
            }
        }
    }
}
