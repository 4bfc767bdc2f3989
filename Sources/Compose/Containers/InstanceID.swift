/// Identifies one instance of an ``InstanceComponent``. Ids are never reused
/// within one container.
public struct InstanceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number behind the id (1, 2, 3, ... in order of creation).
    public let rawValue: UInt64

    /// The id whose number is `rawValue`; containers make their ids
    /// themselves, so this is for tests and for ids read back from a report.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: InstanceID, rhs: InstanceID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String { "\(rawValue)" }
}
