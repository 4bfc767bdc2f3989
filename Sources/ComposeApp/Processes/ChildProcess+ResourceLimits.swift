extension ChildProcess {
    /// Resource limits a child runs under (`setrlimit`, soft and hard limit
    /// alike, so the child cannot raise them again). `nil` keeps this
    /// process's limit.
    ///
    /// ```swift
    /// ChildProcess("convert", arguments: ["in.png", "out.jpg"],
    ///              limits: .init(openFiles: 64, addressSpace: 512 << 20, cpuSeconds: 30))
    /// ```
    ///
    /// They are applied by a wrapper the child starts as (see
    /// ``ChildProcess``, "Confinement"). Each must be positive, and at most
    /// the app's own hard limit unless the app may raise it (it runs as
    /// root and the child keeps its user): otherwise ``ChildProcess/start()``
    /// throws (``LoopError/Code/invalidArgument``,
    /// ``LoopError/Code/operationNotPermitted``).
    public struct ResourceLimits: Hashable, Sendable {
        /// The most file descriptors the child may have open
        /// (`RLIMIT_NOFILE`, `ulimit -n`): past it, `open` and `socket`
        /// fail with `EMFILE`.
        public var openFiles: Int?
        /// The most bytes of virtual memory the child may map (`RLIMIT_AS`,
        /// `ulimit -v`), applied in whole KiB (rounded down; at least
        /// 1 KiB): past it, allocations fail (`malloc` returns `NULL`,
        /// `mmap` fails with `ENOMEM`).
        public var addressSpace: Int?
        /// The most CPU time, in seconds, the child may use (`RLIMIT_CPU`,
        /// `ulimit -t`): past it the kernel kills it (`SIGKILL`, soft and
        /// hard limit being equal).
        public var cpuSeconds: Int?

        /// No limit changed.
        public static let none = ResourceLimits()

        /// Limits the child to `openFiles` descriptors, `addressSpace` bytes
        /// of virtual memory and `cpuSeconds` of CPU time; `nil` keeps this
        /// process's limit.
        public init(openFiles: Int? = nil, addressSpace: Int? = nil, cpuSeconds: Int? = nil) {
            self.openFiles = openFiles
            self.addressSpace = addressSpace
            self.cpuSeconds = cpuSeconds
        }

        /// Whether no limit is set.
        public var isEmpty: Bool { openFiles == nil && addressSpace == nil && cpuSeconds == nil }

        /// ``addressSpace`` in KiB, as `ulimit -v` takes it.
        var addressSpaceKiB: Int? { addressSpace.map { $0 / 1024 } }
    }
}
