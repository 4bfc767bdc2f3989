internal import CLibUV
import Compose

/// What `compose inspect PID loop` shows: the loop's open handles by type,
/// the TCP listeners and the TLS Unix ones (with, for a TLS one, its handshakes in flight and its
/// certificates' subject and expiry), the connections with their peer and
/// queued bytes, the child processes, and the loop's health when something
/// measures it (``LoopHealthReporting``).
///
/// Listeners, connections and child processes stored in components are found in the
/// tree (so they are named by their component's path); in a live app,
/// libuv's list of handles (`uv_walk`) adds those no component holds. A
/// test context has no libuv loop: its report lists what the tree holds
/// and no handles.
struct LoopReport {
    struct Connection {
        /// The component property holding it (`app.server.sessions.1.connection`),
        /// `nil` when no component does.
        var path: String?
        var peer: String
        var queuedBytes: Int
        var isClosing: Bool
    }

    struct Listener {
        /// The component property holding it (`app.server.listener`).
        var path: String
        /// `host:port`.
        var address: String
        var isListening: Bool
        /// Whether it serves TLS.
        var isTLS: Bool
        var handshakesInFlight: Int
        var maximumHandshakesInFlight: Int?
        /// The certificates a TLS listener presents now.
        var certificates: [ListenerCertificate]
        /// The wall-clock time of the report (since the Unix epoch), which
        /// the certificates' expiry is counted from.
        var wallClock: Duration
    }

    struct ChildProcessEntry {
        var path: String?
        var executable: String?
        var pid: Int32?
        /// `running`, `draining` (exited, output still being read),
        /// `exited` or `idle` (never started).
        var state: String
        /// How it ended, for an exited child.
        var termination: String?
    }

    var app: String
    var pid: Int32
    var time: Duration
    /// Whether the app runs on simulated I/O (a test context).
    var isSimulated: Bool
    /// Open handles (not closing) by libuv type name, most first.
    var handles: [(type: String, count: Int)] = []
    var listeners: [Listener] = []
    var connections: [Connection] = []
    var processes: [ChildProcessEntry] = []
    /// Inspection clients connected now.
    var inspectors = 0
    var health: LoopHealth?

    var handleCount: Int { handles.reduce(0) { $0 + $1.count } }

    /// The report of `context`'s app now.
    @MainActor
    static func make(for context: AppContext, pid: Int32, inspectionSocket: String?) -> LoopReport {
        var report = LoopReport(app: context.inspection.appName, pid: pid, time: context.scheduler?.now ?? .zero, isSimulated: context.isSimulated)
        report.health = context.inspection.healthReporter?.loopHealthReport() ?? context.loopHealth
        report.inspectors = context.inspection.clientCount
        var known = Set<ObjectIdentifier>()
        var seenResources = Set<ObjectIdentifier>()
        if let tree = context.tree, !tree.root.isDestroyed {
            for node in tree.allNodes {
                for (label, attachment) in node.labelledAttachments {
                    guard seenResources.insert(ObjectIdentifier(attachment)).inserted else { continue }
                    let path = node.path + "." + label
                    if let connection = attachment as? TCPConnection {
                        if let handle = connection.transport.streamHandle { known.insert(ObjectIdentifier(handle)) }
                        report.connections.append(Connection(path: path, peer: connection.remoteAddress, queuedBytes: connection.queuedBytes, isClosing: connection.transport.isClosing))
                    } else if let server = attachment as? TCPServer {
                        report.listeners.append(Listener(server, path: path))
                    } else if let server = attachment as? UnixServer, server.filterProvider != nil {
                        // A TLS one: its certificates and handshakes.
                        report.listeners.append(Listener(server, path: path))
                    } else if let child = attachment as? ChildProcess {
                        if let handle = child.process { known.insert(ObjectIdentifier(handle)) }
                        report.processes.append(ChildProcessEntry(path: path, executable: child.executable, pid: child.pid, state: child.inspectionState, termination: child.termination?.description))
                    }
                }
            }
        }
        if let loop = context.eventLoop {
            report.addHandles(of: loop, known: known, inspectionSocket: inspectionSocket)
        }
        return report
    }

    /// Counts the loop's open handles and lists the connections and child
    /// processes among them that the tree did not name.
    @MainActor
    private mutating func addHandles(of loop: EventLoop, known: Set<ObjectIdentifier>, inspectionSocket: String?) {
        var counts: [String: Int] = [:]
        for handle in loop.openHandles() {
            let type = String(cString: uv_handle_type_name(uv_handle_get_type(handle)))
            counts[type, default: 0] += 1
            guard let owner = LoopHandle.owner(of: handle), !known.contains(ObjectIdentifier(owner)) else { continue }
            if let socket = owner as? UnixSocketHandle, let inspectionSocket, socket.path == inspectionSocket {
                // The inspection server and its clients: not the app's.
                continue
            }
            if let tcp = owner as? TCPHandle, let peer = tcp.peerAddress {
                let address = peer.host.contains(":") ? "[\(peer.host)]:\(peer.port)" : "\(peer.host):\(peer.port)"
                connections.append(Connection(path: nil, peer: address, queuedBytes: uv_stream_get_write_queue_size(tcp.stream), isClosing: false))
            } else if let process = owner as? ProcessHandle {
                processes.append(ChildProcessEntry(path: nil, executable: nil, pid: process.pid, state: process.hasExited ? "exited" : "running", termination: nil))
            }
        }
        handles = counts.map { (type: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.type < $1.type }
    }
}

extension EventLoop {
    /// Every handle of the loop that is not closing (libuv's walk).
    func openHandles() -> [UnsafeMutablePointer<uv_handle_t>] {
        var handles: [UnsafeMutablePointer<uv_handle_t>] = []
        withUnsafeMutablePointer(to: &handles) { pointer in
            uv_walk(uv, { handle, context in
                guard let handle, uv_is_closing(handle) == 0 else { return }
                context?.assumingMemoryBound(to: [UnsafeMutablePointer<uv_handle_t>].self).pointee.append(handle)
            }, pointer)
        }
        return handles
    }
}

extension ChildProcess {
    /// Where the child is, for a report.
    var inspectionState: String {
        switch phase {
        case .running: "running"
        case .draining: "draining"
        case .idle: termination == nil ? "idle" : "exited"
        }
    }
}

extension LoopReport.Listener {
    @MainActor
    init(_ server: TCPServer, path: String) {
        self.init(server, path: path, isTLS: server.filterProvider != nil, handshakesInFlight: server.handshakesInFlight, listening: server.filterListening)
    }

    @MainActor
    init(_ server: UnixServer, path: String) {
        self.init(server, path: path, isTLS: server.filterProvider != nil, handshakesInFlight: server.handshakesInFlight, listening: server.filterListening)
    }

    @MainActor
    private init(_ listener: any FilteredListener, path: String, isTLS: Bool, handshakesInFlight: Int, listening: (any StreamFilterListening)?) {
        self.init(
            path: path,
            address: listener.listenerAddress,
            isListening: listener.isListening,
            isTLS: isTLS,
            handshakesInFlight: handshakesInFlight,
            maximumHandshakesInFlight: listening?.maximumHandshakesInFlight,
            certificates: listener.isListening ? listening?.certificates ?? [] : [],
            wallClock: Inspection.wallClock()
        )
    }
}
