/// A listener a shutdown's drain closes first (ComposeApp's `TCPServer`
/// and `UnixServer`).
@MainActor
package protocol DrainableListener: AnyObject {
    /// Stops accepting connections (closes the listening socket).
    func stopAccepting()
}

/// A connection a shutdown's drain waits for (a `TCPConnection` that a
/// listener of the app accepted).
@MainActor
package protocol DrainableConnection: AnyObject {
    /// The drain began: tell the app (the connection's `willDrain`), or,
    /// when nobody listens, close.
    func beginDrain()
    /// The drain deadline passed with the connection still open: close it.
    func endDrain()
}

/// The listeners and accepted connections of one app: what
/// ``ShutdownCoordinator``'s drain closes and waits for.
///
/// Entries are weak: a listener or connection that goes away without
/// saying so is forgotten. A connection is counted from its registration
/// (when it was accepted) until it closes or goes away.
@MainActor
package final class ShutdownDrain {
    private struct Listener {
        let order: UInt64
        weak var value: (any DrainableListener)?
    }
    private struct Connection {
        let order: UInt64
        weak var value: (any DrainableConnection)?
    }

    private var listeners: [ObjectIdentifier: Listener] = [:]
    private var connections: [ObjectIdentifier: Connection] = [:]
    /// Registration order, so that listeners close and connections are
    /// told in the order they came (deterministic in a test).
    private var nextOrder: UInt64 = 0
    /// Called when the last connection is gone.
    var onEmpty: (@MainActor () -> Void)?

    package init() {}

    /// Accepted connections still open.
    var connectionCount: Int { connections.count }

    func add(_ listener: some DrainableListener) {
        nextOrder += 1
        listeners[ObjectIdentifier(listener)] = Listener(order: nextOrder, value: listener)
    }

    func remove(listener id: ObjectIdentifier) {
        listeners[id] = nil
    }

    func add(_ connection: some DrainableConnection) {
        nextOrder += 1
        connections[ObjectIdentifier(connection)] = Connection(order: nextOrder, value: connection)
    }

    func remove(connection id: ObjectIdentifier) {
        guard connections.removeValue(forKey: id) != nil else { return }
        if connections.isEmpty { onEmpty?() }
    }

    /// Closes every listener, in the order they began listening.
    func stopAccepting() {
        let open = listeners.values.sorted { $0.order < $1.order }.compactMap(\.value)
        listeners = [:]
        for listener in open { listener.stopAccepting() }
    }

    /// Tells every connection, in the order they were accepted, that the
    /// drain began. Connections that close meanwhile remove themselves.
    func beginDrain() {
        for connection in openConnections { connection.beginDrain() }
    }

    /// Closes every connection still open, in the order they were accepted.
    func closeRemaining() {
        for connection in openConnections { connection.endDrain() }
    }

    private var openConnections: [any DrainableConnection] {
        connections.values.sorted { $0.order < $1.order }.compactMap(\.value)
    }
}
