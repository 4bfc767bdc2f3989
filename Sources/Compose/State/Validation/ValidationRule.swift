/// A rule about one value, for a ``Field`` or ``Each`` of a ``Validation``.
///
/// The built-in rules (``NonEmpty``, ``Email``, ``Length``, ``Matches``)
/// conform; so can rules of your own. A rule that needs the whole state
/// rather than the one value is an ``Equal`` or a ``Custom``.
///
/// ```swift
/// struct Postcode: ValidationRule {
///     func message(for value: String, field: String) -> String? {
///         value.count == 5 && value.allSatisfy(\.isNumber)
///             ? nil
///             : "\(field) must be a five-digit postcode"
///     }
/// }
///
/// let rules = Validation<Address> {
///     Field(\.postcode) { Postcode() }
/// }
/// ```
///
/// Rules are `Sendable` values so that a ``Validation`` can be declared
/// anywhere (a global `let`, a `static let`) and used from any task.
public protocol ValidationRule<Value>: Sendable {
    /// The type of the values the rule checks.
    associatedtype Value

    /// The rule's name in the errors it causes (``ValidationError/rule``).
    /// By default the type's name with a lowercase first letter
    /// (`Postcode` gives `"postcode"`).
    var rule: ValidationError.Rule { get }

    /// Says what is wrong with `value`, or `nil` when it keeps the rule.
    ///
    /// - Parameters:
    ///   - value: The field's value (one element, for an ``Each``).
    ///   - field: The field's readable name (`"email"`, `"tag[2]"`), to
    ///     start the message with.
    /// - Returns: A message for people, or `nil` when `value` is valid.
    func message(for value: Value, field: String) -> String?
}

extension ValidationRule {
    public var rule: ValidationError.Rule {
        let typeName = String(describing: Self.self).prefix { $0 != "<" }
        return ValidationError.Rule(rawValue: typeName.prefix(1).lowercased() + typeName.dropFirst())
    }
}
