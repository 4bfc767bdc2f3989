/// The rules a state must keep, field by field, declared with a result
/// builder; ``validate(_:)`` checks a state against them.
///
/// ```swift
/// struct SignUp: Equatable {
///     var email = ""
///     var password = ""
///     var repeated = ""
///     var tags: [String] = []
/// }
///
/// let signUpRules = Validation<SignUp> {
///     Field(\.email) { NonEmpty(); Email() }
///     Field(\.password) { Length(8...64) }
///     Field(\.repeated, "repeated password") { Equal(to: \.password) }
///     Each(\.tags, "tag") { NonEmpty(); Matches(/[a-z]+/) }
/// }
///
/// let result = signUpRules.validate(form)
/// result.isValid                 // false
/// result.errors(for: \.email)    // [email must not be empty, ...]
/// ```
///
/// To follow a changing state, validate its emitter (a store's `$state`):
///
/// ```swift
/// $state.validated(by: signUpRules) ++= { result in
///     submitEnabled = result.isValid
/// }
/// ```
///
/// - Every rule of every field is checked; ``ValidationResult/errors`` lists
///   the failures in the order the fields, and within a field the rules,
///   are declared (then element by element for an ``Each``).
/// - A validation is a `Sendable` value: declare it once (a global, a
///   `static let`, a property) and use it from any task.
/// - Validations compose: a ``Validation`` may appear among the fields of
///   another, and a ``Field`` or ``Each`` may check its value with one
///   (`Field(\.address, validatedBy: addressRules)`).
public struct Validation<State>: Sendable {
    let checks: [FieldCheck<State>]

    init(_ checks: [FieldCheck<State>]) {
        self.checks = checks
    }

    /// Creates a validation from its fields.
    ///
    /// - Parameter fields: ``Field``s, ``Each``es and other validations of
    ///   `State`, checked in this order.
    public init(@ValidationBuilder<State> _ fields: () -> Validation<State>) {
        self = fields()
    }

    /// Checks `state` against every rule.
    ///
    /// - Parameter state: The state to check.
    /// - Returns: The broken rules, in declaration order; valid when none.
    public func validate(_ state: State) -> ValidationResult<State> {
        var entries: [ValidationResult<State>.Entry] = []
        var errors: [IndexedError] = []
        for check in checks {
            check.run(state, "", &errors)
            for error in errors {
                entries.append(.init(keyPath: check.keyPath, index: error.index, error: error.error))
            }
            errors.removeAll(keepingCapacity: true)
        }
        return ValidationResult(entries: entries)
    }

    /// The errors of `state`, each field's name starting with `prefix`: a
    /// validation nested in a ``Field`` or ``Each`` of another.
    func errors(of state: State, prefix: String) -> [ValidationError] {
        var errors: [IndexedError] = []
        for check in checks { check.run(state, prefix, &errors) }
        return errors.map(\.error)
    }
}
