import Compose

/// A server the test scripts (`TestApp.listen(port:)`): the app's
/// `TCPConnection.connect` to its port is accepted, and the test gets its
/// end of each connection.
@MainActor
package final class SimulatedServer {
    /// Called with the test's end of each accepted connection, on the
    /// context's clock, before the app's connect completes.
    package var onAccept: (@MainActor (SimulatedPeer) -> Void)?
    /// Whether it accepts connections (until stopped or replaced).
    package internal(set) var isListening = false
    /// What it does in a TLS handshake (``SimulatedTLSPeer``); `nil` for a
    /// plain server.
    package var tls: SimulatedTLSPeer?

    package init() {}

    func accepted(_ peer: SimulatedPeer) {
        onAccept?(peer)
    }
}
