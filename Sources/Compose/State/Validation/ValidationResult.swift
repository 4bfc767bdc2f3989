/// What a ``Validation`` found in one state: valid, or the broken rules in
/// declaration order.
///
/// ```swift
/// let result = signUpRules.validate(form)
/// if !result.isValid {
///     print(result.errors.map(\.message))   // in the order the rules are declared
/// }
/// result.errors(for: \.email).first?.message
/// result.errors(for: \.tags, at: 2)         // the third tag's errors
/// ```
///
/// Two results are equal when they hold the same errors in the same order,
/// which is what lets ``EmitterProtocol/validated(by:)`` send only when
/// something changed.
public struct ValidationResult<State>: Equatable, Sendable, CustomStringConvertible {
    /// One error and the field (top-level key path, element index) it is about.
    struct Entry: Equatable, Sendable {
        let keyPath: any PartialKeyPath<State> & Sendable
        let index: Int?
        let error: ValidationError

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.error == rhs.error && lhs.index == rhs.index && lhs.keyPath as AnyKeyPath == rhs.keyPath as AnyKeyPath
        }
    }

    let entries: [Entry]

    /// Every broken rule, in the order the fields and their rules are
    /// declared; empty when the state is valid.
    public let errors: [ValidationError]

    init(entries: [Entry]) {
        self.entries = entries
        errors = entries.map(\.error)
    }

    /// Whether the state keeps every rule.
    public var isValid: Bool { errors.isEmpty }

    /// The errors of one field (declared with ``Field`` or ``Each``), in
    /// declaration order; for an ``Each``, those of every element.
    ///
    /// - Parameter field: The key path the field was declared with.
    /// - Returns: The field's errors; empty when it is valid (or was not
    ///   declared).
    public func errors(for field: PartialKeyPath<State>) -> [ValidationError] {
        let field = field as AnyKeyPath
        return entries.filter { $0.keyPath as AnyKeyPath == field }.map(\.error)
    }

    /// The errors of one element of an array declared with ``Each``.
    ///
    /// - Parameters:
    ///   - field: The key path the ``Each`` was declared with.
    ///   - index: The element's index in the array.
    /// - Returns: The element's errors; empty when it is valid.
    public func errors<Element>(for field: KeyPath<State, [Element]>, at index: Int) -> [ValidationError] {
        let field = field as AnyKeyPath
        return entries.filter { $0.index == index && $0.keyPath as AnyKeyPath == field }.map(\.error)
    }

    /// "valid", or the messages separated by "; ".
    public var description: String {
        isValid ? "valid" : errors.map(\.message).joined(separator: "; ")
    }
}
