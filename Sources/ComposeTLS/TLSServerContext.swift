import ComposeApp

/// What a TLS server puts under each connection it accepts: its
/// ``TLSContext``, made when it starts listening (so a bad certificate
/// or key fails the listen), and an engine per connection.
@MainActor
final class TLSServerContext: StreamFilterProvider {
    let configuration: TLSConfiguration
    private var context: TLSContext?
    /// The server's initializer, for messages (`TCPServer(tls:)`).
    private let server: String

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
}
