/// One broken rule: which field, which rule, and a message for people.
///
/// ```swift
/// let result = rules.validate(SignUp(email: "ada@"))
/// for error in result.errors {
///     print(error)   // "email must be a valid email address"
/// }
/// result.errors.first?.field   // "email"
/// result.errors.first?.rule    // .email
/// ```
///
/// Errors come in the order their fields and rules are declared in the
/// ``Validation``; an element of an array field names its index
/// (`"tag[2]"`), a field of a nested validation its path
/// (`"line[1].product"`).
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name of a rule, for code that reacts to a particular failure
    /// (`error.rule == .email`) rather than reading messages.
    ///
    /// The built-in rules use the constants below; a rule of your own
    /// (``ValidationRule``) names itself, by default after its type:
    ///
    /// ```swift
    /// extension ValidationError.Rule {
    ///     static let postcode = Self(rawValue: "postcode")
    /// }
    /// ```
    public struct Rule: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// ``NonEmpty``: the value has no elements (an empty string).
        public static let nonEmpty = Rule(rawValue: "nonEmpty")
        /// ``Email``: the value is not an email address.
        public static let email = Rule(rawValue: "email")
        /// ``Length``: the value's count is outside the range.
        public static let length = Rule(rawValue: "length")
        /// ``Equal``: the value differs from another field or a fixed value.
        public static let equal = Rule(rawValue: "equal")
        /// ``Matches``: the value does not match the regular expression.
        public static let matches = Rule(rawValue: "matches")
        /// ``Custom``: the closure returned `false`.
        public static let custom = Rule(rawValue: "custom")
    }

    /// The field's readable name: the name given to ``Field`` or ``Each``
    /// (or derived from its key path), with the element's index for an
    /// array (`"tag[2]"`) and the outer fields for a nested validation
    /// (`"address.city"`).
    public let field: String

    /// The rule the value broke.
    public let rule: Rule

    /// What is wrong, for people: `"password must be 8 to 64 characters
    /// long"`, or the rule's `message:` when one was given.
    public let message: String

    /// Creates an error; rules report through ``ValidationRule``, so code
    /// outside a validation rarely needs this.
    ///
    /// - Parameters:
    ///   - field: The field's readable name.
    ///   - rule: The rule that failed.
    ///   - message: What is wrong, for people.
    public init(field: String, rule: Rule, message: String) {
        self.field = field
        self.rule = rule
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}
