/// The longest line a line splitter accepts, in bytes, not counting its
/// `\n` (or `\r\n`).
///
/// Every resource that splits its input into lines (``TCPConnection/lines``,
/// ``ChildProcess/output`` and ``ChildProcess/errorOutput``,
/// ``StandardInput``) has one, 64 KiB by default, so a peer that never
/// sends a newline cannot make the app buffer without bound. A longer line
/// is a ``LoopError/Code/lineTooLong`` error on the resource's `errors`;
/// each resource documents what it does next. Only
/// ``unlimited`` lifts the limit, and only when you ask for it.
///
/// ```swift
/// connection.maximumLineLength = 4096          // an integer literal is bytes
/// let tool = ChildProcess("dump", maximumLineLength: .kibibytes(1024))
/// let input = StandardInput(maximumLineLength: .unlimited)
/// ```
public struct LineLengthLimit: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The limit in bytes, or `nil` for ``unlimited``.
    public let bytes: Int?

    private init(limit: Int?) {
        bytes = limit
    }

    /// 64 KiB: the limit of every line splitter unless told otherwise.
    public static let `default` = LineLengthLimit(limit: 64 * 1024)

    /// No limit: a line may grow until memory runs out. Use it only for
    /// input you trust.
    public static let unlimited = LineLengthLimit(limit: nil)

    /// A limit of `count` bytes (at least 1; smaller values mean 1).
    public static func bytes(_ count: Int) -> LineLengthLimit {
        LineLengthLimit(limit: max(1, count))
    }

    /// A limit of `count` KiB (1,024 bytes each).
    public static func kibibytes(_ count: Int) -> LineLengthLimit {
        .bytes(count.multipliedReportingOverflow(by: 1024).overflow ? Int.max : count * 1024)
    }

    /// A limit of `value` bytes: `connection.maximumLineLength = 4096`.
    public init(integerLiteral value: Int) {
        self = .bytes(value)
    }

    /// `65536 bytes`, or `unlimited`.
    public var description: String {
        bytes.map { "\($0) bytes" } ?? "unlimited"
    }
}
