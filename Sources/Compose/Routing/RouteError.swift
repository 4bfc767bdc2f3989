/// Why a route string could not be opened. Nothing was changed.
public struct RouteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A segment names no child component at its level.
        public static let unknownSegment = Code(rawValue: "unknownSegment")
        /// A segment leads through a `DynamicComponent` that was not created.
        public static let notCreated = Code(rawValue: "notCreated")
        /// The route goes through a lazy component that cannot be created
        /// because its parent is not active.
        public static let inactive = Code(rawValue: "inactive")
        /// There is no tree to route yet.
        public static let notBound = Code(rawValue: "notBound")
    }

    /// What went wrong.
    public let code: Code
    /// The segment that could not be followed.
    public let segment: String
    /// The segments valid at that level.
    public let choices: [String]
    /// A sentence naming the segment, where it failed, and the choices.
    public let message: String

    /// An error for `segment`, which failed as `code` says, with the
    /// segments valid at its level and the sentence that explains it.
    public init(code: Code, segment: String, choices: [String], message: String) {
        self.code = code
        self.segment = segment
        self.choices = choices
        self.message = message
    }

    public var description: String { message }
}
