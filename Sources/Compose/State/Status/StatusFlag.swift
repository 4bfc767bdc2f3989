/// A named activity for ``StatusFlags``: `.loading`, `.saving`,
/// `.sending`, or one of your own.
///
/// ```swift
/// extension StatusFlag {
///     static let uploading: StatusFlag = "uploading"
/// }
///
/// let status = Status()
/// try await status.while(.uploading) { try await upload(file) }
/// ```
///
/// Flags are equal when their names are. An enum of your own works as well:
/// `StatusFlags<Phase>`.
public struct StatusFlag: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        rawValue = value
    }

    public var description: String { rawValue }

    /// Data is being fetched or restored.
    public static let loading: StatusFlag = "loading"
    /// Data is being written or uploaded.
    public static let saving: StatusFlag = "saving"
    /// A message or request is on its way.
    public static let sending: StatusFlag = "sending"
}

/// Status flags named by ``StatusFlag``: `let status = Status()`.
public typealias Status = StatusFlags<StatusFlag>
