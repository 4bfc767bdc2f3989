/// The rule that a string (or any collection) is not empty.
///
/// ```swift
/// Field(\.name) { NonEmpty() }                 // "name must not be empty"
/// Field(\.tags) { NonEmpty(message: "Add a tag") }
/// ```
///
/// A string of spaces is not empty; add a ``Matches`` rule such as
/// `Matches(/.*\S.*/)` when it should count as empty.
public struct NonEmpty<Value: Collection>: ValidationRule {
    private let customMessage: String?

    /// - Parameter message: The error's message instead of the default
    ///   "*field* must not be empty".
    public init(message: String? = nil) {
        customMessage = message
    }

    public var rule: ValidationError.Rule { .nonEmpty }

    public func message(for value: Value, field: String) -> String? {
        value.isEmpty ? customMessage ?? "\(field) must not be empty" : nil
    }
}
