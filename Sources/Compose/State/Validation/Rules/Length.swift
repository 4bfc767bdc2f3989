/// The rule that a string's length (or any collection's count) is within
/// bounds.
///
/// ```swift
/// Field(\.password) { Length(8...64) }   // "password must be 8 to 64 characters long"
/// Field(\.name) { Length(...40) }        // "name must be at most 40 characters long"
/// Field(\.pin) { Length(exactly: 4) }    // "pin must be exactly 4 characters long"
/// Field(\.tags) { Length(1...) }         // "tags must have at least 1 element"
/// ```
///
/// A string's length is its number of `Character`s (what a person counts:
/// "é" and "👩‍💻" are one each), not of bytes.
public struct Length<Value: Collection>: ValidationRule {
    private let minimum: Int
    private let maximum: Int?
    private let customMessage: String?

    /// - Parameters:
    ///   - range: The counts allowed.
    ///   - message: The error's message instead of the default one.
    public init(_ range: ClosedRange<Int>, message: String? = nil) {
        self.init(minimum: range.lowerBound, maximum: range.upperBound, message: message)
    }

    /// - Parameters:
    ///   - range: The smallest count allowed, as `8...`.
    ///   - message: The error's message instead of the default one.
    public init(_ range: PartialRangeFrom<Int>, message: String? = nil) {
        self.init(minimum: range.lowerBound, maximum: nil, message: message)
    }

    /// - Parameters:
    ///   - range: The largest count allowed, as `...64`.
    ///   - message: The error's message instead of the default one.
    public init(_ range: PartialRangeThrough<Int>, message: String? = nil) {
        self.init(minimum: 0, maximum: range.upperBound, message: message)
    }

    /// - Parameters:
    ///   - count: The one count allowed.
    ///   - message: The error's message instead of the default one.
    public init(exactly count: Int, message: String? = nil) {
        self.init(minimum: count, maximum: count, message: message)
    }

    private init(minimum: Int, maximum: Int?, message: String?) {
        self.minimum = minimum
        self.maximum = maximum
        customMessage = message
    }

    public var rule: ValidationError.Rule { .length }

    public func message(for value: Value, field: String) -> String? {
        let count = value.count
        if count >= minimum, maximum.map({ count <= $0 }) ?? true { return nil }
        return customMessage ?? "\(field) \(requirement)"
    }

    /// "must be 8 to 64 characters long", "must have at least 1 element".
    private var requirement: String {
        let isText = Value.self is any StringProtocol.Type
        let bounds: String
        let last: Int
        switch maximum {
        case .some(let maximum) where maximum == minimum:
            bounds = "exactly \(minimum)"
            last = minimum
        case .some(let maximum) where minimum > 0:
            bounds = "\(minimum) to \(maximum)"
            last = maximum
        case .some(let maximum):
            bounds = "at most \(maximum)"
            last = maximum
        case .none:
            bounds = "at least \(minimum)"
            last = minimum
        }
        let unit = isText ? "character" : "element"
        let units = last == 1 ? unit : unit + "s"
        return isText ? "must be \(bounds) \(units) long" : "must have \(bounds) \(units)"
    }
}
