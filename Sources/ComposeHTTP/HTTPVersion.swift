/// The HTTP version of a request (`HTTP/1.1`).
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version (1).
    public var major: Int
    /// The minor version (0 or 1).
    public var minor: Int

    /// The version `major.minor`.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// HTTP/1.0: no chunked bodies, keep-alive only when asked for.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }
}
