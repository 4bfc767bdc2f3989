private import CLibSSL
#if canImport(Glibc)
private import Glibc
#endif
import ComposeApp

/// The engine's part in who may talk to whom: pins, and the messages of
/// a refused client certificate.
extension TLSEngine {
    /// Notes, in the engine of `ssl` (its ex_data slot), that the server
    /// asked for a certificate this client does not have; answers
    /// OpenSSL's client-certificate callback with "none" (0).
    static func noteCertificateRequest(_ ssl: OpaquePointer?) -> Int32 {
        guard let ssl, let slot = SSL_get_ex_data(ssl, exDataIndex) else { return 0 }
        // Unretained, as in noteVerification(_:_:): OpenSSL calls back
        // only inside the engine's own SSL_do_handshake.
        Unmanaged<TLSEngine>.fromOpaque(slot).takeUnretainedValue().certificateRequested = true
        return 0
    }

    /// Why the keys of the verified chain in `store` match none of
    /// `pins`, naming what was seen and what was pinned; `nil` if one
    /// matches.
    static func pinMismatch(_ store: OpaquePointer, pins: [PublicKeyPin]) -> String? {
        var seen: [PublicKeyPin] = []
        if let chain = X509_STORE_CTX_get0_chain(store) {
            for index in 0..<max(0, OPENSSL_sk_num(chain)) {
                guard let certificate = OPENSSL_sk_value(chain, index), let pin = publicKeyPin(of: OpaquePointer(certificate)) else { continue }
                seen.append(pin)
            }
        }
        if seen.isEmpty, let leaf = X509_STORE_CTX_get_current_cert(store), let pin = publicKeyPin(of: leaf) {
            seen.append(pin)
        }
        guard !seen.contains(where: pins.contains) else { return nil }
        return TLSErrors.pinMismatch(seen: seen, pins: pins)
    }

    /// The pin of `certificate`'s key: the SHA-256 of its DER-encoded
    /// SubjectPublicKeyInfo.
    static func publicKeyPin(of certificate: OpaquePointer) -> PublicKeyPin? {
        guard let key = X509_get_X509_PUBKEY(certificate) else { return nil }
        let length = i2d_X509_PUBKEY(key, nil)
        // An SPKI is a few hundred bytes (RSA 4096: 550).
        guard length > 0, length <= 16 << 10 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509_PUBKEY(key, &cursor)
        }
        guard written == length else { return nil }
        var digest = [UInt8](repeating: 0, count: 32)
        var digestLength: UInt32 = 0
        guard EVP_Digest(der, der.count, &digest, &digestLength, EVP_sha256(), nil) == 1, digestLength == 32 else { return nil }
        // Base64 of 32 bytes: 44 characters and a NUL.
        var text = [UInt8](repeating: 0, count: 48)
        let count = EVP_EncodeBlock(&text, digest, 32)
        return PublicKeyPin(String(decoding: text.prefix(Int(max(0, count))), as: UTF8.self))
    }

    /// A failure that is about a certificate this side presents, or does
    /// not: named as such, typed `tlsVerificationFailed` on the server
    /// (its client sent none), `tlsHandshakeFailed` on the client (the
    /// server refused it, or asked for one it does not have). `nil` for
    /// any other failure.
    func authenticationFailure(_ reasons: [(code: Int32, text: String)]) -> LoopError? {
        let said = reasons.map(\.text).joined(separator: "; ")
        if context.configuration.isServer {
            guard reasons.contains(where: { $0.code == SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE }) else { return nil }
            return TLSErrors.clientCertificateMissing(said: said, peer: peer)
        }
        let refusals: Set<Int32> = [
            SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED, SSL_R_SSLV3_ALERT_BAD_CERTIFICATE, SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED,
            SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED, SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN, SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE,
            SSL_R_TLSV1_ALERT_UNKNOWN_CA, SSL_R_TLSV1_ALERT_ACCESS_DENIED,
        ]
        let refused = reasons.contains { refusals.contains($0.code) }
        if let chain = context.configuration.certificateChainFile {
            guard refused else { return nil }
            return .tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "the server refused this client's certificate (\(chain)): \(said)", context: peer)
        }
        let required = reasons.contains { $0.code == SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED }
        let refusedAfterAsking = certificateRequested && (refused || reasons.contains { $0.code == SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE })
        guard required || refusedAfterAsking else { return nil }
        return .tls(.tlsHandshakeFailed, operation: "TLS handshake", message: "the server requires a client certificate, and this client has none (TLSConfiguration.client(certificateChain:privateKey:)): \(said)", context: peer)
    }

    /// The session's facts about who the peer is: its certificate's
    /// expiry, the server name.
    func addAuthentication(to session: inout TLSSession) {
        if let certificate = SSL_get0_peer_certificate(ssl), let notAfter = X509_get0_notAfter(certificate) {
            var time = tm()
            if ASN1_TIME_to_tm(notAfter, &time) == 1 {
                session.peerCertificateNotAfter = Int(timegm(&time))
            }
        }
        session.serverName = compose_tls_server_name(ssl).map { String(cString: $0) }
    }
}
