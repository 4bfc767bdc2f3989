private import CLibSSL
import ComposeApp

/// Who may talk to whom: a server's certificates chosen by SNI, its
/// requests for client certificates (mutual TLS), a client's own
/// certificate.
extension TLSContext {
    /// The most certificates a peer's chain may hold above its own when
    /// this side verifies it (OpenSSL's default is 100): a bound on the
    /// work a client's chain costs a server.
    static let maximumVerifyDepth: Int32 = 8

    /// Asks clients for a certificate signed by an authority of
    /// `authentication`'s file (the authorities' names are sent in the
    /// request), and, for ``TLSConfiguration/ClientAuthentication/require(trustRoots:)``,
    /// refuses a client that sends none.
    func requestClientCertificates(_ authentication: TLSConfiguration.ClientAuthentication) throws(LoopError) {
        guard let file = authentication.trustRoots else { return }
        guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
            throw TLSErrors.invalid("TLSConfiguration.clientAuthentication", "cannot use the client authorities' certificates: the file must be PEM certificates (a CA's)", context: file)
        }
        // SSL_CTX_set_client_CA_list takes the list over.
        guard let names = SSL_load_client_CA_file(file) else {
            throw TLSErrors.invalid("TLSConfiguration.clientAuthentication", "the client authorities' file holds no certificate: it must be PEM certificates (a CA's)", context: file)
        }
        SSL_CTX_set_client_CA_list(context, names)
        var mode = SSL_VERIFY_PEER
        if case .require = authentication { mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT }
        SSL_CTX_set_verify(context, mode) { preverified, store in
            TLSEngine.noteVerification(preverified, store)
        }
        SSL_CTX_set_verify_depth(context, Self.maximumVerifyDepth)
        // A server that verifies clients must name its sessions, or
        // OpenSSL refuses every resumption ("session id context
        // uninitialized"); the same name in every context of the server.
        let name = Array("ComposeTLS".utf8)
        SSL_CTX_set_session_id_context(context, name, UInt32(name.count))
    }

    /// A client's certificate and key (mutual TLS), if it has one: read
    /// and matched as a server's.
    func loadClientCertificate(_ configuration: TLSConfiguration) throws(LoopError) {
        guard configuration.certificateChainFile != nil, configuration.privateKeyFile != nil else {
            // A server that asks for a certificate is noted (to name
            // why, should it refuse the connection).
            SSL_CTX_set_client_cert_cb(context) { ssl, _, _ in
                TLSEngine.noteCertificateRequest(ssl)
            }
            return
        }
        try loadCertificate(configuration)
    }

    /// A context per additional certificate, and the SNI callback that
    /// switches a connection to the one holding the name asked for.
    func loadServerNames(_ configuration: TLSConfiguration) throws(LoopError) {
        guard !configuration.additionalCertificates.isEmpty else { return }
        var contexts: [TLSContext] = []
        for files in configuration.additionalCertificates {
            var other = configuration
            other.certificateChainFile = files.certificateChain
            other.privateKeyFile = files.privateKey
            other.additionalCertificates = []
            contexts.append(try TLSContext(other))
        }
        serverNames = contexts
        // The callback finds this context through its argument:
        // unretained, as the ALPN callback's (see docs/unsafe.md).
        let argument = Unmanaged.passUnretained(self).toOpaque()
        compose_tls_set_servername_callback(context, { ssl, _, argument in
            guard let ssl, let argument else { return SSL_TLSEXT_ERR_OK }
            let context = Unmanaged<TLSContext>.fromOpaque(argument).takeUnretainedValue()
            return MainActor.assumeIsolated { context.selectCertificate(ssl) }
        }, argument)
    }

    /// Switches `ssl` to the first context whose certificate holds the
    /// name the client asked for, unless this one's does, or it asked
    /// for none: then this one's answers.
    private func selectCertificate(_ ssl: OpaquePointer) -> Int32 {
        guard let name = compose_tls_server_name(ssl) else { return SSL_TLSEXT_ERR_OK }
        if Self.certificate(of: context, holds: name) { return SSL_TLSEXT_ERR_OK }
        for other in serverNames where Self.certificate(of: other.context, holds: name) {
            // The SSL takes its own reference to the other SSL_CTX.
            _ = SSL_set_SSL_CTX(ssl, other.context)
            return SSL_TLSEXT_ERR_OK
        }
        return SSL_TLSEXT_ERR_OK
    }

    /// Whether the certificate of `context` holds `name` (its alternative
    /// names, wildcards included, or else its common name).
    private static func certificate(of context: OpaquePointer, holds name: UnsafePointer<CChar>) -> Bool {
        guard let certificate = SSL_CTX_get0_certificate(context) else { return false }
        return X509_check_host(certificate, name, 0, 0, nil) == 1
    }
}
