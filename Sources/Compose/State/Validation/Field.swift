/// One field of a ``Validation``: a property of the state, by key path, and
/// the rules its value must keep.
///
/// ```swift
/// Validation<SignUp> {
///     Field(\.email) { NonEmpty(); Email() }                   // named "email"
///     Field(\.repeated, "repeated password") { Equal(to: \.password) }
///     Field(\.address, validatedBy: addressRules)              // "address.city must ..."
/// }
/// ```
///
/// The field's name starts its errors' messages and is their
/// ``ValidationError/field``: the one given, or else the key path's
/// properties (`\.email` gives "email", `\.address.city` "address.city").
/// If your app declares a type of its own named `Field`, write
/// `Compose.Field`.
public struct Field<State, Value>: Sendable {
    let check: FieldCheck<State>

    /// A field checked by a list of rules.
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is in the state.
    ///   - name: The field's readable name; by default derived from
    ///     `keyPath`.
    ///   - rules: The rules, checked in this order; every broken one is an
    ///     error.
    public init(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        _ name: String? = nil,
        @RuleBuilder<State, Value> _ rules: () -> RuleSet<State, Value>
    ) {
        let name = name ?? FieldName.derived(from: keyPath)
        let rules = rules()
        check = FieldCheck(keyPath: keyPath) { state, prefix, errors in
            var found: [ValidationError] = []
            rules.check(state[keyPath: keyPath], in: state, field: prefix + name, into: &found)
            errors += found.map { IndexedError(index: nil, error: $0) }
        }
    }

    /// A field whose value is itself checked by a validation (a nested
    /// struct); its errors name the inner fields after this one
    /// (`"address.city"`).
    ///
    /// - Parameters:
    ///   - keyPath: Where the value is in the state.
    ///   - name: The field's readable name; by default derived from
    ///     `keyPath`.
    ///   - validation: The rules of the value's own fields.
    public init(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        _ name: String? = nil,
        validatedBy validation: Validation<Value>
    ) {
        let name = name ?? FieldName.derived(from: keyPath)
        check = FieldCheck(keyPath: keyPath) { state, prefix, errors in
            errors += validation.errors(of: state[keyPath: keyPath], prefix: prefix + name + ".")
                .map { IndexedError(index: nil, error: $0) }
        }
    }
}
