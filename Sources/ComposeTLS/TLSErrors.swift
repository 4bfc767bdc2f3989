private import CLibSSL
import ComposeApp

/// OpenSSL's error queue, read into `LoopError`s. The queue is the
/// thread's (the loop's): every call that may fail clears it first, and
/// reading it empties it, so one connection's errors never show in
/// another's. What is read is OpenSSL's reason text, never key material.
enum TLSErrors {
    /// Empties the thread's error queue.
    static func clear() {
        ERR_clear_error()
    }

    /// The reasons on the queue, oldest first ("wrong version number",
    /// "tlsv1 alert unknown ca"), and empties it.
    static func drain() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                var text = [CChar](repeating: 0, count: 256)
                text.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
                reasons.append(String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return reasons
    }

    /// A configuration that cannot be used: `what` failed, with OpenSSL's
    /// reasons appended.
    static func invalid(_ operation: String, _ what: String, context: String?) -> LoopError {
        .tls(.tlsConfigurationInvalid, operation: operation, message: withReasons(what), context: context)
    }

    /// A peer's certificate that the verification rejected (by a client,
    /// or by a server that asks for client certificates,
    /// `byServer`): which one (`rejected`: its depth in the chain and its
    /// subject, if known) and why (OpenSSL's verification error, or a pin
    /// mismatch). The real and the simulated handshakes (`TestApp`) say
    /// it alike.
    static func verificationFailed(byServer: Bool, rejected: (depth: Int32, subject: String)?, reason: String, peer: String) -> LoopError {
        let side = byServer ? "client" : "server"
        let which: String
        if let rejected {
            which = "the certificate at depth \(rejected.depth) of the chain (\(rejected.depth == 0 ? "the \(side)'s own" : "an issuer")), \(rejected.subject)"
        } else {
            which = "the \(side)'s certificate chain"
        }
        return .tls(.tlsVerificationFailed, operation: "TLS handshake", message: "\(which), was rejected: \(reason)", context: peer)
    }

    /// A server that requires client certificates got none; `said` is
    /// OpenSSL's reason.
    static func clientCertificateMissing(said: String, peer: String) -> LoopError {
        .tls(.tlsVerificationFailed, operation: "TLS handshake", message: "the client sent no certificate, and this server requires one (TLSConfiguration.clientAuthentication is .require): \(said)", context: peer)
    }

    /// Why a server's keys (`seen`: its own first, then its issuers')
    /// match none of the client's `pins`.
    static func pinMismatch(seen: [PublicKeyPin], pins: [PublicKeyPin]) -> String {
        let own = seen.first.map { "\($0)" } ?? "unreadable"
        let issuers = seen.dropFirst().map(\.description)
        let chain = issuers.isEmpty ? "" : " (its issuers': \(issuers.joined(separator: ", ")))"
        return "its public key \(own)\(chain) matches none of the pinned keys \(pins.map(\.description).joined(separator: ", ")) (TLSConfiguration.pinnedPublicKeys)"
    }

    /// `message` and the queue's reasons (emptying it).
    static func withReasons(_ message: String) -> String {
        let reasons = drain()
        return reasons.isEmpty ? message : "\(message): \(reasons.joined(separator: "; "))"
    }
}
