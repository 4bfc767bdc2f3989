#if canImport(Glibc)
private import Glibc
#endif
import ComposeApp

/// TLS in a test context (`TestApp`), simulated: the configuration judges
/// what the test's side presents with the checks of a real handshake, in
/// their order, and fails with the same typed errors and messages; no
/// file is read and no cryptography runs (docs/protocols.md, "TLS",
/// "Under TestApp").
extension TLSConfiguration {
    /// The protocol version and suite every simulated session reports.
    static let simulatedVersion = "TLSv1.3"
    static let simulatedCipherSuite = "TLS_AES_256_GCM_SHA384"

    /// Checks what can be checked without the files: the side, and the
    /// options of the other side or malformed (as `TLSContext` does first).
    func checkSimulated(operation: String, side wanted: Bool) throws(LoopError) {
        guard isServer == wanted else {
            let message = wanted
                ? "a server needs a server configuration: TLSConfiguration.server(certificateChain:privateKey:)"
                : "a client needs a client configuration: TLSConfiguration.client()"
            throw .tls(.tlsConfigurationInvalid, operation: operation, message: message, context: nil)
        }
        if let misuse = authenticationMisuse() { throw misuse }
        if isServer, certificateChainFile == nil || privateKeyFile == nil {
            throw TLSErrors.invalid("TLSConfiguration", "a server needs a certificate chain and a private key", context: nil)
        }
    }

    /// The app's side of a simulated handshake with the test's side
    /// `test`: this configuration is the server's (the test is a client)
    /// or the client's, connecting to `host` (the test is a scripted
    /// server).
    func simulatedHandshake(with test: SimulatedTLSPeer, host: String?, peer: String) -> Result<SimulatedTLSSession, LoopError> {
        // ALPN: the server's preference among what the client offers; a
        // client that offers some, none of which the server speaks, is
        // refused (RFC 7301).
        let (server, client) = isServer ? (applicationProtocols, test.applicationProtocols) : (test.applicationProtocols, applicationProtocols)
        var chosen: String?
        if !server.isEmpty, !client.isEmpty {
            guard let first = server.first(where: client.contains) else {
                let message = isServer ? "no application protocol" : "tlsv1 alert no application protocol"
                return .failure(.tls(.tlsHandshakeFailed, operation: "TLS handshake", message: message, context: peer))
            }
            chosen = first
        }
        let now = Int64(time(nil))
        if isServer {
            return simulatedServerHandshake(with: test, chosen: chosen, now: now, peer: peer)
        }
        guard let certificate = test.certificate else {
            return .failure(.tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "the server sent no certificate", context: peer))
        }
        let name = serverName ?? host ?? ""
        let numeric = TLSEngine.isNumericAddress(name)
        if let reason = Self.simulatedRejection(of: certificate, now: now) ?? hostRejection(of: certificate, name: name, numeric: numeric) ?? pinRejection(of: certificate) {
            return .failure(TLSErrors.verificationFailed(byServer: false, rejected: (0, certificate.subject), reason: reason, peer: peer))
        }
        return .success(SimulatedTLSSession(
            applicationProtocol: chosen,
            protocolVersion: Self.simulatedVersion,
            cipherSuite: Self.simulatedCipherSuite,
            peerCertificateSubject: certificate.subject,
            peerCertificateNotAfter: Int(certificate.notAfter),
            serverName: numeric || name.isEmpty ? nil : name
        ))
    }

    /// A server's side: the client's certificate, as its
    /// ``clientAuthentication`` asks.
    private func simulatedServerHandshake(with test: SimulatedTLSPeer, chosen: String?, now: Int64, peer: String) -> Result<SimulatedTLSSession, LoopError> {
        var presented: SimulatedCertificate?
        switch clientAuthentication {
        case .none:
            break
        case .request, .require:
            if let certificate = test.certificate {
                if let reason = Self.simulatedRejection(of: certificate, now: now) {
                    return .failure(TLSErrors.verificationFailed(byServer: true, rejected: (0, certificate.subject), reason: reason, peer: peer))
                }
                presented = certificate
            } else if case .require = clientAuthentication {
                return .failure(TLSErrors.clientCertificateMissing(said: "peer did not return a certificate", peer: peer))
            }
        }
        return .success(SimulatedTLSSession(
            applicationProtocol: chosen,
            protocolVersion: Self.simulatedVersion,
            cipherSuite: Self.simulatedCipherSuite,
            peerCertificateSubject: presented?.subject,
            peerCertificateNotAfter: presented.map { Int($0.notAfter) },
            serverName: test.serverName
        ))
    }

    /// OpenSSL's reason for a certificate whose issuer is not trusted, or
    /// which expired (checked in that order, as its chain is built first).
    private static func simulatedRejection(of certificate: SimulatedCertificate, now: Int64) -> String? {
        if !certificate.isTrusted { return "unable to get local issuer certificate" }
        if certificate.notAfter < now { return "certificate has expired" }
        return nil
    }

    /// OpenSSL's reason for a certificate that does not hold `name`.
    private func hostRejection(of certificate: SimulatedCertificate, name: String, numeric: Bool) -> String? {
        guard !name.isEmpty else { return nil }
        if numeric {
            return certificate.names.contains(name) ? nil : "IP address mismatch"
        }
        return certificate.names.contains { Self.holds($0, name) } ? nil : "hostname mismatch"
    }

    /// Whether a certificate's name `pattern` holds host `name`: equal
    /// (ignoring case), or a wildcard for the leftmost label.
    static func holds(_ pattern: String, _ name: String) -> Bool {
        let pattern = pattern.lowercased()
        let name = name.lowercased()
        if pattern == name { return true }
        guard pattern.hasPrefix("*."), let dot = name.firstIndex(of: ".") else { return false }
        return name[dot...] == pattern.dropFirst()
    }

    /// Why a certificate's key matches none of the pins, if there are any.
    private func pinRejection(of certificate: SimulatedCertificate) -> String? {
        let pins = pinnedPublicKeys.compactMap(PublicKeyPin.init)
        guard !pins.isEmpty else { return nil }
        let seen = PublicKeyPin(certificate.publicKeyPin).map { [$0] } ?? []
        guard !seen.contains(where: pins.contains) else { return nil }
        return TLSErrors.pinMismatch(seen: seen, pins: pins)
    }
}

/// A client connection's simulated handshake (``TLSConfiguration/clientFilter(operation:serverName:peer:context:)``
/// in a test context).
@MainActor
final class SimulatedTLSClient: SimulatedTLSHandshaking {
    let configuration: TLSConfiguration
    /// The host and port connected to, as a real engine names its peer.
    let peer: String

    init(_ configuration: TLSConfiguration, peer: String) {
        self.configuration = configuration
        self.peer = peer
    }

    func prepareSimulation() throws(LoopError) {}

    func simulatedHandshake(with test: SimulatedTLSPeer, host: String?, peer _: String) -> Result<SimulatedTLSSession, LoopError> {
        configuration.simulatedHandshake(with: test, host: host, peer: peer)
    }

    var handshakeTimeout: Duration? { configuration.handshakeTimeout }
}

extension TLSServerContext: SimulatedTLSHandshaking {
    func prepareSimulation() throws(LoopError) {
        try configuration.checkSimulated(operation: server, side: true)
        isSimulated = true
    }

    func simulatedHandshake(with test: SimulatedTLSPeer, host: String?, peer: String) -> Result<SimulatedTLSSession, LoopError> {
        configuration.simulatedHandshake(with: test, host: host, peer: peer)
    }
}

extension TLSSession {
    /// The session of a simulated handshake.
    init(_ simulated: SimulatedTLSSession) {
        self.init(
            applicationProtocol: simulated.applicationProtocol,
            protocolVersion: simulated.protocolVersion,
            cipherSuite: simulated.cipherSuite,
            peerCertificateSubject: simulated.peerCertificateSubject,
            peerCertificateNotAfter: simulated.peerCertificateNotAfter,
            serverName: simulated.serverName
        )
    }
}
