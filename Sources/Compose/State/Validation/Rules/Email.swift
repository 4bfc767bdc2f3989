/// The rule that a string is an email address: `local@domain.tld`.
///
/// ```swift
/// Field(\.email) { NonEmpty(); Email() }   // "email must be a valid email address"
/// ```
///
/// A practical check with Swift `Regex` (no Foundation, so it behaves the
/// same on Linux and macOS), not the whole of RFC 5322: the local part is
/// dot-separated runs of letters, digits, the backquote and `!#$%&'*+/=?^_{|}~-`; the
/// domain is at least two dot-separated labels of letters, digits and inner
/// hyphens, the last one letters only; letters and digits may be any
/// script's. At most 64 characters before the `@` and 254 in all. Quoted
/// local parts, IP-address domains and single-label domains
/// (`ada@localhost`) are refused.
///
/// If your app declares a type of its own named `Email`, write
/// `Compose.Email()`.
public struct Email<Value: StringProtocol>: ValidationRule {
    private let customMessage: String?
    private let pattern: SharedRegex

    /// - Parameter message: The error's message instead of the default
    ///   "*field* must be a valid email address".
    public init(message: String? = nil) {
        customMessage = message
        pattern = SharedRegex(#/[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}/#)
    }

    public var rule: ValidationError.Rule { .email }

    public func message(for value: Value, field: String) -> String? {
        isEmailAddress(String(value)) ? nil : customMessage ?? "\(field) must be a valid email address"
    }

    private func isEmailAddress(_ string: String) -> Bool {
        guard string.count <= 254, let at = string.lastIndex(of: "@"), string[..<at].count <= 64 else { return false }
        return pattern.wholeMatches(string)
    }
}
