/// A frame longer than its decoder's maximum: what a ``FrameDecoder``
/// throws when it learns a frame's length before it has all of it (from a
/// length field), or sees more bytes than the maximum without the end of a
/// frame (a line without its newline). The stream then fails with
/// `LoopError.Code.frameTooLarge`, naming itself, ``limit`` and
/// ``length``; the error's `LoopError.framingError` is
/// ``FramingError/frameTooLarge(_:)`` with this value.
///
/// ```swift
/// if length > maximumLength {
///     throw FrameTooLarge(length: length, limit: maximumLength, isAnnounced: true)
/// }
/// ```
public struct FrameTooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// The frame's length in bytes: as announced by its header, or (when
    /// ``isAnnounced`` is `false`) the bytes seen so far without its end.
    public let length: Int
    /// The maximum that ``length`` exceeds.
    public let limit: Int
    /// Whether ``length`` is the frame's announced length (a length
    /// field), or only a lower bound (the bytes seen so far).
    public let isAnnounced: Bool

    /// A frame of `length` bytes (announced, or at least that many seen)
    /// over `limit`.
    public init(length: Int, limit: Int, isAnnounced: Bool) {
        self.length = length
        self.limit = limit
        self.isAnnounced = isAnnounced
    }

    /// What was seen: `a frame announcing 70000 bytes`, `a frame of at
    /// least 70000 bytes`.
    public var seen: String {
        isAnnounced ? "a frame announcing \(length) bytes" : "a frame of at least \(length) bytes"
    }

    public var description: String {
        "\(seen), more than the maximum of \(limit)"
    }
}
