internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// What the program that started the app handed it: listening sockets
/// (systemd's socket activation, `LISTEN_FDS`) and, for a worker of the
/// workers mode (``WorkerOptions``), its index.
///
/// `StartupComponent.main()` reads it once from the process's environment
/// (``process()``) into the app's context, before anything listens; a test
/// sets `AppContext.launchEnvironment` to one of its own making instead.
/// Nothing here is read from the process later.
///
/// **Socket activation** (`sd_listen_fds(3)`): the launcher passes the
/// sockets as descriptors 3, 4, ... and sets `LISTEN_FDS` to their number,
/// `LISTEN_PID` to the app's process ID (variables meant for another
/// process, such as the launcher's parent, are ignored), and optionally
/// `LISTEN_FDNAMES` to their names, separated by colons (systemd's
/// `FileDescriptorName=`, by default the socket unit's name). `TCPServer`
/// and `UnixServer` listen on these sockets instead of binding (see
/// ``TCPServer/activationName``).
///
/// ```swift
/// // A test: the app sees `listener` as descriptor `listener` named "chat".
/// context.launchEnvironment = LaunchEnvironment(inheritedSockets: [InheritedSocket(fd: listener, name: "chat")])
/// ```
public struct LaunchEnvironment: Sendable, Hashable {
    /// The listening sockets handed to this process, in their order.
    public var inheritedSockets: [InheritedSocket]
    /// This process's index among the workers (0 for the first) when the
    /// workers mode started it (`COMPOSE_WORKER`), else `nil`.
    public var workerIndex: Int?
    /// The process ID of the workers-mode parent that started this worker
    /// (`COMPOSE_WORKER_PARENT`), else `nil`.
    public var workerParentID: Int32?
    /// Why variables that were set were not used (`LISTEN_PID` naming
    /// another process, a malformed `LISTEN_FDS`, ...): the runtime logs
    /// them at startup.
    public var notes: [String]

    /// The environment variable that marks a worker and holds its index.
    public static let workerVariable = "COMPOSE_WORKER"
    /// The environment variable that holds a worker's parent's process ID.
    public static let workerParentVariable = "COMPOSE_WORKER_PARENT"

    /// A launch environment given as is (a test's).
    ///
    /// - Parameters:
    ///   - inheritedSockets: The listening sockets, as if inherited.
    ///   - workerIndex: The worker's index, if it is to run as a worker.
    ///   - workerParentID: The worker's parent's process ID.
    public init(inheritedSockets: [InheritedSocket] = [], workerIndex: Int? = nil, workerParentID: Int32? = nil) {
        self.inheritedSockets = inheritedSockets
        self.workerIndex = workerIndex
        self.workerParentID = workerParentID
        notes = []
    }

    /// Reads `variables` as the process `processID`, whose parent is
    /// `parentProcessID`, would: the sockets of `LISTEN_FDS` when
    /// `LISTEN_PID` is `processID` (or, in a worker, its parent's, which
    /// passed them on), named by `LISTEN_FDNAMES` when it has one name per
    /// socket; the worker's index and parent.
    ///
    /// Pure: it neither checks nor touches the descriptors.
    ///
    /// - Parameters:
    ///   - variables: The environment.
    ///   - processID: This process's ID (`getpid()`).
    ///   - parentProcessID: Its parent's (`getppid()`).
    public init(variables: [String: String], processID: Int32, parentProcessID: Int32) {
        self.init()
        if let worker = variables[Self.workerVariable] {
            if let index = Int(worker), index >= 0 {
                workerIndex = index
                workerParentID = variables[Self.workerParentVariable].flatMap { Int32($0) }
            } else {
                notes.append("\(Self.workerVariable)=\(worker) is not a worker index: running as a single process.")
            }
        }
        guard let count = variables["LISTEN_FDS"] else { return }
        guard let pidText = variables["LISTEN_PID"], let pid = Int32(pidText) else {
            notes.append("LISTEN_FDS is set without a valid LISTEN_PID: the inherited sockets are ignored.")
            return
        }
        // A worker's parent passes on the sockets systemd gave it, with
        // its own process ID in LISTEN_PID.
        let passedOn = workerParentID != nil && pid == workerParentID && pid == parentProcessID
        guard pid == processID || passedOn else {
            notes.append("LISTEN_FDS is set for process \(pid), not this one (\(processID)): the inherited sockets are ignored.")
            return
        }
        guard let number = Int(count), number >= 0, number <= 65_536 - 3 else {
            notes.append("LISTEN_FDS=\(count) is not a number of descriptors: the inherited sockets are ignored.")
            return
        }
        var names: [String?] = Array(repeating: nil, count: number)
        if let list = variables["LISTEN_FDNAMES"] {
            let given = list.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            if given.count == number {
                names = given.map { $0.isEmpty ? nil : $0 }
            } else {
                notes.append("LISTEN_FDNAMES has \(given.count) name(s) for \(number) socket(s): the names are ignored.")
            }
        }
        inheritedSockets = (0..<number).map { InheritedSocket(fd: Int32(3 + $0), name: names[$0]) }
    }

    /// This process's launch environment, read from its environment
    /// variables. The inherited descriptors are made close-on-exec (as
    /// `sd_listen_fds` does), so that children the app starts do not hold
    /// them; the variables are left as they are (`LISTEN_PID` tells other
    /// processes they are not meant for them).
    public static func process() -> LaunchEnvironment {
        var variables: [String: String] = [:]
        for name in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", workerVariable, workerParentVariable] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        let environment = LaunchEnvironment(variables: variables, processID: getpid(), parentProcessID: getppid())
        for socket in environment.inheritedSockets {
            let flags = fcntl(socket.fd, F_GETFD)
            if flags >= 0 { _ = fcntl(socket.fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        return environment
    }
}

/// A listening socket the app inherited (socket activation): its
/// descriptor and, when the launcher named it, its name.
public struct InheritedSocket: Sendable, Hashable, CustomStringConvertible {
    /// The descriptor (3 for the first).
    public let fd: Int32
    /// Its name in `LISTEN_FDNAMES` (systemd's `FileDescriptorName=`), if
    /// any.
    public let name: String?

    /// - Parameters:
    ///   - fd: The descriptor.
    ///   - name: Its name, if any.
    public init(fd: Int32, name: String? = nil) {
        self.fd = fd
        self.name = name
    }

    /// `fd 3` or `fd 3 ("chat.socket")`.
    public var description: String {
        name.map { "fd \(fd) (\"\($0)\")" } ?? "fd \(fd)"
    }
}
