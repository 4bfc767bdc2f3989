import Compose
#if canImport(Glibc)
import Glibc
#endif

/// One app's ``LaunchEnvironment`` and which server listens on each
/// inherited socket: kept by the app's event loop (so by its context),
/// never by the process.
///
/// A server *claims* an inherited socket and listens on a duplicate of
/// its descriptor, never on the descriptor itself: closing the server
/// closes the duplicate, the inherited socket stays open, and a server
/// started again (a restarted subtree, ``TCPServer/start()`` after
/// ``TCPServer/stop()``) claims it again instead of binding a port that the
/// launcher still holds. A claim ends when its server closes or is
/// released.
@MainActor
final class LaunchState {
    /// What the app was started with.
    var environment: LaunchEnvironment {
        didSet { claims = [:] }
    }
    /// Whether every `TCPServer` of the app binds with `SO_REUSEPORT`: the
    /// setting `reusePort` (`--reuse-port`), for copies of the app started
    /// by another supervisor (systemd's `app@.service` instances).
    var reusesPorts = false
    /// The server listening on each claimed descriptor.
    private var claims: [Int32: WeakClaimant] = [:]

    init(_ environment: LaunchEnvironment = LaunchEnvironment()) {
        self.environment = environment
    }

    /// The server a socket is claimed by, held weakly.
    private struct WeakClaimant {
        weak var owner: AnyObject?
    }

    /// What a server needs of an inherited socket.
    enum Expected {
        /// A listening TCP socket (IPv4 or IPv6).
        case tcp
        /// A listening Unix domain stream socket.
        case unix

        var families: Set<Int32> {
            switch self {
            case .tcp: [AF_INET, AF_INET6]
            case .unix: [AF_UNIX]
            }
        }

        var text: String {
            switch self {
            case .tcp: "a listening TCP socket (ListenStream= with a port or address in the .socket unit)"
            case .unix: "a listening Unix stream socket (ListenStream= with a path in the .socket unit)"
            }
        }
    }

    /// The inherited sockets no live server has claimed.
    var unclaimed: [InheritedSocket] {
        environment.inheritedSockets.filter { claims[$0.fd]?.owner == nil }
    }

    /// The socket `owner` has claimed, if any.
    func socket(claimedBy owner: AnyObject) -> InheritedSocket? {
        environment.inheritedSockets.first { claims[$0.fd]?.owner === owner }
    }

    /// Claims an inherited socket for `owner` and returns it with a
    /// duplicate of its descriptor (close-on-exec) to listen on, or `nil`
    /// when none is for it.
    ///
    /// Which one: the first unclaimed socket whose name is one of `names`
    /// (in the order of `names`); when none is and `byNameOnly` is false,
    /// the first unclaimed socket of the family `expected` asks for (or
    /// whose family cannot be told: it is checked next and rejected).
    ///
    /// - Throws: ``LoopError/Code/inheritedSocketMismatch`` when the socket
    ///   chosen is not what `expected` asks for (naming it, what it is and
    ///   what was expected), or `fcntl`'s error when it cannot be
    ///   duplicated; nothing is claimed then.
    func claim(for owner: AnyObject, names: [String], byNameOnly: Bool, expected: Expected, server: String) throws(LoopError) -> (socket: InheritedSocket, fd: Int32)? {
        let free = unclaimed
        guard !free.isEmpty else { return nil }
        var chosen: InheritedSocket?
        for name in names {
            if let match = free.first(where: { $0.name == name }) {
                chosen = match
                break
            }
        }
        if chosen == nil, !byNameOnly {
            chosen = free.first { socket in
                guard case .success(let probe) = SocketProbe.probe(socket.fd) else { return true }
                return expected.families.contains(probe.family)
            }
        }
        guard let chosen else { return nil }
        try SocketProbe.check(chosen, expected: expected, server: server)
        let duplicate = fcntl(chosen.fd, F_DUPFD_CLOEXEC, 3)
        guard duplicate >= 0 else {
            throw LoopError("fcntl(F_DUPFD_CLOEXEC)", errno: errno, context: "inherited \(chosen) for \(server)")
        }
        claims[chosen.fd] = WeakClaimant(owner: owner)
        return (chosen, duplicate)
    }

    /// Ends `owner`'s claim, if it has one.
    func release(_ owner: AnyObject) {
        for (fd, claimant) in claims where claimant.owner === owner || claimant.owner == nil {
            claims[fd] = nil
        }
    }

    /// Reports the inherited sockets no server claimed
    /// (``Diagnostic/Code/unclaimedInheritedSocket``): the runtime calls it
    /// once the root is active.
    func reportUnclaimed(in context: AppContext) {
        let left = unclaimed
        guard !left.isEmpty else { return }
        let described = left.map { socket in
            let kind = (try? SocketProbe.probe(socket.fd).get()).map(\.kindDescription) ?? "not a socket"
            return "\(socket), \(kind)"
        }
        context.report(Diagnostic(
            .unclaimedInheritedSocket,
            "\(left.count) inherited socket(s) (LISTEN_FDS) not listened on by any server: \(described.joined(separator: "; ")). "
                + "Give each TCPServer or UnixServer the activationName of its socket (FileDescriptorName= in the .socket unit), or remove the socket from the unit."
        ))
    }
}
