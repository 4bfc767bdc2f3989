/// The rule that a value equals another field of the state, or a fixed
/// value.
///
/// ```swift
/// Field(\.repeated, "repeated password") {
///     Equal(to: \.password)                  // "repeated password must match password"
/// }
/// Field(\.acceptsTerms, "terms") {
///     Equal(to: true, message: "Please accept the terms")
/// }
/// ```
///
/// Unlike the other rules it reads the whole state (`Root`), so it is a
/// rule of a ``Field`` or ``Each`` rather than a ``ValidationRule``.
public struct Equal<Root, Value: Equatable & Sendable>: Sendable {
    let anyRule: AnyRule<Root, Value>

    /// The value must equal another field of the state.
    ///
    /// - Parameters:
    ///   - other: The other field's key path.
    ///   - name: The other field's name in messages; by default the key
    ///     path's last part (`\.password` gives "password").
    ///   - message: The error's message instead of the default "*field*
    ///     must match *other*".
    public init(to other: any KeyPath<Root, Value> & Sendable, _ name: String? = nil, message: String? = nil) {
        let otherName = name ?? FieldName.derived(from: other)
        anyRule = AnyRule { value, root, field in
            value == root[keyPath: other]
                ? nil
                : ValidationError(field: field, rule: .equal, message: message ?? "\(field) must match \(otherName)")
        }
    }

    /// The value must equal `expected`.
    ///
    /// - Parameters:
    ///   - expected: The one value allowed.
    ///   - message: The error's message instead of the default "*field*
    ///     must equal *expected*".
    public init(to expected: Value, message: String? = nil) {
        anyRule = AnyRule { value, _, field in
            value == expected
                ? nil
                : ValidationError(field: field, rule: .equal, message: message ?? "\(field) must equal \(expected)")
        }
    }
}
