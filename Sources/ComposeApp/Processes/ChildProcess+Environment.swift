internal import CLibUV

extension ChildProcess {
    /// The environment a child starts with: this process's (``inherit``),
    /// this process's with some variables set (``inherit(adding:)``), or
    /// only the given variables (``clean(_:)``).
    ///
    /// ```swift
    /// ChildProcess("make", environment: .inherit(adding: ["JOBS": "4"]))
    /// ChildProcess("/usr/bin/env", environment: .clean(["PATH": "/usr/bin:/bin"]))
    /// ```
    ///
    /// A dictionary literal is a clean environment and `nil` the inherited
    /// one, as when the parameter was a `[String: String]?`:
    /// `environment: ["FOO": "bar"]` is `.clean(["FOO": "bar"])`.
    public struct Environment: Hashable, Sendable, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
        /// Whether this process's variables are the base.
        public let inherits: Bool
        /// Variables set on top of the base (replacing inherited ones of the
        /// same name), or the whole environment when ``inherits`` is false.
        public let variables: [String: String]

        /// This process's environment, as it is when the child starts.
        public static let inherit = Environment(inherits: true, variables: [:])

        /// This process's environment with `variables` set (they replace
        /// inherited variables of the same name).
        public static func inherit(adding variables: [String: String]) -> Environment {
            Environment(inherits: true, variables: variables)
        }

        /// Only `variables`: nothing of this process's environment, not
        /// even `PATH`. An executable named without a `/` is looked up in
        /// the `PATH` given here (`/bin:/usr/bin` without one), as `execvp`
        /// does.
        public static func clean(_ variables: [String: String]) -> Environment {
            Environment(inherits: false, variables: variables)
        }

        private init(inherits: Bool, variables: [String: String]) {
            self.inherits = inherits
            self.variables = variables
        }

        /// `.clean` with the literal's variables.
        public init(dictionaryLiteral elements: (String, String)...) {
            self.init(inherits: false, variables: Dictionary(elements) { _, last in last })
        }

        /// ``inherit``.
        public init(nilLiteral: ()) {
            self = .inherit
        }

        /// The whole environment the child gets, or `nil` for exactly this
        /// process's (nothing to pass to the spawn).
        func resolved() -> [String: String]? {
            if inherits, variables.isEmpty { return nil }
            guard inherits else { return variables }
            return ProcessEnvironment.variables().merging(variables) { _, added in added }
        }
    }
}
