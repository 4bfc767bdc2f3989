internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    // MARK: Confinement (see "Confinement" and "When the app itself dies")

    /// What `uv_spawn` runs: the executable itself, or the wrapper that
    /// applies ``limits``, ``umask`` and ``parentDeathSignal`` and then
    /// `exec`s it.
    struct Launch: Equatable {
        /// The program `uv_spawn` starts (`argv[0]` too).
        let file: String
        /// Its arguments after `argv[0]`.
        let arguments: [String]

        /// The shell the wrapper runs.
        static let shell = "/bin/sh"
        /// The wrapper shell's `$0`, which its error messages start with.
        static let label = "ChildProcess"
        /// The wrapper's script, made of these fixed fragments only: every
        /// value is a positional parameter, consumed by `shift`, never text
        /// of the script. What is left is the executable and its arguments.
        enum Fragment {
            /// `$1` the app's PID, `$2` the death signal's number: the
            /// parent changed (the app died before `setpriv` set the
            /// signal), so the signal is sent now.
            static let parentCheck = #"[ "$PPID" = "$1" ] || kill -"$2" "$$"; shift 2; "#
            static let openFiles = #"ulimit -n "$1" || exit 126; shift; "#
            static let addressSpace = #"ulimit -v "$1" || exit 126; shift; "#
            static let cpuSeconds = #"ulimit -t "$1" || exit 126; shift; "#
            static let umask = #"umask "$1" || exit 126; shift; "#
            static let exec = #"exec "$@""#
        }

        /// The wrapper for `executable` (already looked up) and `arguments`;
        /// `setpriv` is the path of util-linux's `setpriv` when
        /// `parentDeathSignal` is set.
        static func wrapping(
            _ executable: String,
            arguments: [String],
            limits: ResourceLimits,
            umask: UInt16?,
            parentDeathSignal: (name: String, number: Int32)?,
            setpriv: String?,
            appPID: Int32
        ) -> Launch {
            var script = ""
            var values: [String] = []
            if let parentDeathSignal {
                script += Fragment.parentCheck
                values += [String(appPID), String(parentDeathSignal.number)]
            }
            if let openFiles = limits.openFiles {
                script += Fragment.openFiles
                values.append(String(openFiles))
            }
            if let kibibytes = limits.addressSpaceKiB {
                script += Fragment.addressSpace
                values.append(String(kibibytes))
            }
            if let seconds = limits.cpuSeconds {
                script += Fragment.cpuSeconds
                values.append(String(seconds))
            }
            if let umask {
                script += Fragment.umask
                values.append("0" + String(umask, radix: 8))
            }
            script += Fragment.exec
            let shellArguments = ["-c", script, label] + values + [executable] + arguments
            if let parentDeathSignal, let setpriv {
                return Launch(file: setpriv, arguments: ["--pdeathsig", parentDeathSignal.name, "--", shell] + shellArguments)
            }
            return Launch(file: shell, arguments: shellArguments)
        }
    }

    /// Whether an option needs the wrapper.
    var isConfined: Bool { !limits.isEmpty || umask != nil || parentDeathSignal != nil }

    /// Checks the options' values (in a test context too).
    ///
    /// - Throws: ``LoopError/Code/invalidArgument`` naming the option.
    func validateConfinement() throws(LoopError) {
        func invalid(_ what: String) -> LoopError {
            LoopError("ChildProcess.start", code: UV_EINVAL.rawValue, context: "\(executable): \(what)")
        }
        if let openFiles = limits.openFiles, openFiles < 1 {
            throw invalid("limits.openFiles must be at least 1, not \(openFiles)")
        }
        if let bytes = limits.addressSpace, bytes < 1024 {
            throw invalid("limits.addressSpace must be at least 1024 bytes, not \(bytes)")
        }
        if let seconds = limits.cpuSeconds, seconds < 1 {
            throw invalid("limits.cpuSeconds must be at least 1, not \(seconds)")
        }
        if let umask, umask > 0o777 {
            throw invalid("umask must be at most 0o777, not 0o\(String(umask, radix: 8))")
        }
        if let signal = parentDeathSignal, Self.signalName(signal.rawValue) == nil {
            throw invalid("parentDeathSignal \(signal) is not a signal setpriv knows by name")
        }
    }

    /// What to spawn for this run: the executable as given, or, when an
    /// option needs it, the wrapper around the executable looked up.
    ///
    /// - Parameters:
    ///   - environment: The child's whole environment, or `nil` for this
    ///     process's.
    ///   - helperSearchPath: Where `setpriv` is looked for; this process's
    ///     `PATH` and the system's directories unless given (a test's).
    /// - Throws: `ENOENT` (or `EACCES`) for an executable that cannot run,
    ///   ``LoopError/Code/missingHelper``, or
    ///   ``LoopError/Code/operationNotPermitted`` for a limit above the
    ///   app's hard limit.
    func launch(environment: [String: String]?, helperSearchPath: String? = nil) throws(LoopError) -> Launch {
        guard isConfined else { return Launch(file: executable, arguments: arguments) }
        guard access(Launch.shell, X_OK) == 0 else {
            throw .missingHelper(Launch.shell, for: "limits and umask", package: "a POSIX shell (dash or bash)", context: executable)
        }
        var setpriv: String?
        var signal: (name: String, number: Int32)?
        if let parentDeathSignal, let name = Self.signalName(parentDeathSignal.rawValue) {
            let path = helperSearchPath ?? (getenv("PATH").map { String(cString: $0) } ?? "") + ":/usr/bin:/bin:/usr/sbin:/sbin"
            setpriv = Self.lookUp("setpriv", path: path)
            guard setpriv != nil else {
                throw .missingHelper("setpriv", for: "parentDeathSignal", package: "util-linux (2.33 or later; Debian and Ubuntu: util-linux, Alpine: setpriv)", context: executable)
            }
            signal = (name, parentDeathSignal.rawValue)
        }
        try checkHardLimits()
        return Launch.wrapping(
            try resolvedExecutable(environment: environment),
            arguments: arguments,
            limits: limits,
            umask: umask,
            parentDeathSignal: signal,
            setpriv: setpriv,
            appPID: getpid()
        )
    }

    /// The executable as `execvp` would find it: a path with a `/` (relative
    /// to ``workingDirectory``) as is, a name in the child's `PATH`.
    ///
    /// - Throws: `uv_spawn`'s `ENOENT` (or `EACCES`) naming the executable,
    ///   as a spawn without the wrapper does.
    private func resolvedExecutable(environment: [String: String]?) throws(LoopError) -> String {
        var context = executable
        if let workingDirectory { context += " in \(workingDirectory)" }
        if executable.contains("/") {
            var path = executable
            if let workingDirectory, !executable.hasPrefix("/") { path = workingDirectory + "/" + executable }
            guard access(path, X_OK) == 0 else { throw LoopError("uv_spawn", code: -errno, context: context) }
            // `exec` would take a leading `-` for an option.
            return executable.hasPrefix("-") ? "./" + executable : executable
        }
        // The child's PATH, as execvp sees it; its default when unset.
        let path: String?
        if let environment {
            path = environment["PATH"]
        } else {
            path = getenv("PATH").map { String(cString: $0) }
        }
        guard let found = Self.lookUp(executable, path: path ?? "/bin:/usr/bin") else {
            throw LoopError("uv_spawn", code: UV_ENOENT.rawValue, context: context)
        }
        return found.hasPrefix("-") ? "./" + found : found
    }

    /// The first executable regular file named `name` in the directories of
    /// `path` (`:`-separated).
    static func lookUp(_ name: String, path: String) -> String? {
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + name
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Throws when a limit is above the app's own hard limit and the app
    /// cannot raise it (only root can, and only for a child that keeps
    /// root's user).
    private func checkHardLimits() throws(LoopError) {
        guard geteuid() != 0 || user != nil else { return }
        let checks: [(name: String, resource: Int32, value: Int?)] = [
            ("openFiles", Int32(RLIMIT_NOFILE.rawValue), limits.openFiles),
            ("addressSpace", Int32(RLIMIT_AS.rawValue), limits.addressSpaceKiB.map { $0 * 1024 }),
            ("cpuSeconds", Int32(RLIMIT_CPU.rawValue), limits.cpuSeconds),
        ]
        for check in checks {
            guard let value = check.value else { continue }
            var current = rlimit()
            guard getrlimit(__rlimit_resource_t(check.resource), &current) == 0, current.rlim_max != rlim_t.max else { continue }  // rlim_t.max: RLIM_INFINITY
            if UInt64(value) > UInt64(current.rlim_max) {
                throw LoopError(
                    "ChildProcess.start", code: UV_EPERM.rawValue,
                    context: "\(executable): limits.\(check.name) \(value) is above the app's hard limit \(current.rlim_max); only a privileged app can raise it"
                )
            }
        }
    }

    /// The name `setpriv --pdeathsig` takes for signal `number`, if it is
    /// a standard one.
    static func signalName(_ number: Int32) -> String? {
        let name = ProcessSignal.Name.describe(number)
        return name.hasPrefix("SIG") ? name : nil
    }
}
