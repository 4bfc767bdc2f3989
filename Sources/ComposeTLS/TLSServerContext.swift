import ComposeApp

/// What a TLS server puts under each connection it accepts: its
/// ``TLSContext``, made when it starts listening (so a bad certificate
/// or key fails the listen), and an engine per connection.
@MainActor
final class TLSServerContext: StreamFilterProvider {
    let configuration: TLSConfiguration
    private var context: TLSContext?
    /// The server's initializer, for messages (`TCPServer(tls:)`).
    let server: String

    // The listener's life (TLSServerContext+Operation.swift).
    /// The listener, while it listens.
    weak var listener: (any FilteredListener)?
    /// Its app, while it listens.
    weak var appContext: AppContext?
    /// `host:port` (`unix:/path`), as it listens.
    var listenerName = ""
    /// The app's configuration reloads, which reload the certificate.
    var reloads: Subscription?
    /// The certificate whose expiry the app's metrics report.
    var reportedCertificate: ListenerCertificate?
    /// Its handshakes are simulated (a test context's server): no file
    /// is read.
    var isSimulated = false

    init(_ configuration: TLSConfiguration, server: String = "TCPServer(tls:)") {
        self.configuration = configuration
        self.server = server
    }

    func prepare() throws(LoopError) {
        guard configuration.isServer else {
            throw .tls(.tlsConfigurationInvalid, operation: server, message: "a server needs a server configuration: TLSConfiguration.server(certificateChain:privateKey:)", context: nil)
        }
        // Read again at each listen: a restarted listener takes new files.
        context = try TLSContext(configuration)
    }

    func makeFilter(peer: String) throws(LoopError) -> any StreamFilter {
        guard let context else {
            throw .tls(.tlsConfigurationInvalid, operation: server, message: "the server's TLS context was not prepared", context: peer)
        }
        return try TLSEngine(context: context, host: nil, peer: peer)
    }

    var handshakeTimeout: Duration? { configuration.handshakeTimeout }

    /// The context new connections are made from, while the listener
    /// listens (or since it last did).
    var currentContext: TLSContext? { context }

    /// Reads the certificate chain and key again into a new context, for
    /// the connections accepted from now on; those accepted before keep
    /// theirs (each engine holds its context). On failure the current one
    /// stays.
    func reloadContext() throws(LoopError) {
        context = try TLSContext(configuration)
    }

    isolated deinit {
        reloads?.cancel()
    }
}
