private import CLibSSL
#if canImport(Glibc)
private import Glibc
#endif
import ComposeApp

/// One TLS connection's `SSL`, driven through two memory BIOs, as Node's
/// tls module does on libuv: what the socket reads is written into the
/// input BIO, `SSL_do_handshake` and `SSL_read` consume it; `SSL_write`
/// and the handshake write into the output BIO, which the transport hands
/// to the socket (`StreamFilter`). OpenSSL does all the
/// cryptography and record parsing; nothing here parses TLS.
///
/// **Ownership.** `ssl` is made in the init and freed in the deinit
/// (`SSL_free`, which frees both BIOs: `SSL_set_bio` handed them over).
/// The engine holds its ``TLSContext``, so the `SSL_CTX` outlives the
/// `SSL`. The `SSL`'s ex_data slot ``exDataIndex`` holds the engine,
/// unretained, for the verification callback (``noteVerification(_:_:)``),
/// which OpenSSL calls only inside `SSL_do_handshake`, made by the engine
/// itself: so the engine is alive whenever it runs.
@MainActor
final class TLSEngine: StreamFilter {
    /// The `SSL`, owned (see the type's documentation).
    let ssl: OpaquePointer
    /// The input BIO (what the socket read), owned by `ssl`.
    private let input: OpaquePointer
    /// The output BIO (what the socket must send), owned by `ssl`.
    private let output: OpaquePointer
    let context: TLSContext
    /// The peer's address, for error messages.
    let peer: String
    /// A fatal error happened: OpenSSL says not to shut down after one.
    private var broken = false
    /// The close_notify was made.
    private var ended = false
    /// The first certificate the verification rejected (the server's, or
    /// a client's on a server that asks for client certificates).
    private var rejected: (depth: Int32, code: Int32, subject: String)?
    /// Why the server's keys matched none of the pins (a client's).
    var pinMismatch: String?
    /// The server asked for a certificate this client does not have.
    var certificateRequested = false

    /// The ex_data slot of every `SSL` of ComposeTLS that holds its
    /// engine. Allocated once per process by OpenSSL; immutable after.
    nonisolated static let exDataIndex: Int32 = compose_tls_new_ssl_index()

    /// - Parameters:
    ///   - context: The server's or client's context.
    ///   - host: A client's: the host connected to, whose name (or
    ///     address) the server's certificate must hold, unless the
    ///     configuration's ``TLSConfiguration/serverName`` replaces it.
    ///   - peer: The peer's address, for messages.
    init(context: TLSContext, host: String?, peer: String) throws(LoopError) {
        TLSErrors.clear()
        guard let ssl = SSL_new(context.context) else {
            throw .tls(.tlsHandshakeFailed, operation: "SSL_new", message: TLSErrors.withReasons("OpenSSL could not make a connection"), context: peer)
        }
        guard let input = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .tls(.tlsHandshakeFailed, operation: "BIO_new", message: TLSErrors.withReasons("OpenSSL could not make a buffer"), context: peer)
        }
        guard let output = BIO_new(BIO_s_mem()) else {
            BIO_free(input)
            SSL_free(ssl)
            throw .tls(.tlsHandshakeFailed, operation: "BIO_new", message: TLSErrors.withReasons("OpenSSL could not make a buffer"), context: peer)
        }
        // An empty input means "more will come", never end of file.
        compose_tls_bio_retry_when_empty(input)
        compose_tls_bio_retry_when_empty(output)
        // From here on `ssl` owns both BIOs (SSL_free frees them).
        SSL_set_bio(ssl, input, output)
        self.ssl = ssl
        self.input = input
        self.output = output
        self.context = context
        self.peer = peer
        SSL_set_ex_data(ssl, Self.exDataIndex, Unmanaged.passUnretained(self).toOpaque())
        if context.configuration.isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            let name = context.configuration.serverName ?? host ?? ""
            if Self.isNumericAddress(name) {
                // An address: checked against the certificate's IP
                // addresses; no SNI (RFC 6066 allows names only).
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
            } else if !name.isEmpty {
                _ = compose_tls_set_server_name(ssl, name)
                SSL_set1_host(ssl, name)
            }
        }
    }

    isolated deinit {
        // Frees the BIOs too (SSL_set_bio gave them to it).
        SSL_free(ssl)
    }

    // MARK: StreamFilter

    func receive(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        // A memory BIO takes everything (it grows); at most one read of
        // the socket waits here, since the socket stops reading while the
        // connection pauses.
        BIO_write(input, base, Int32(clamping: bytes.count))
    }

    func handshake() throws(LoopError) -> Bool {
        Self.clearErrors()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        let error = SSL_get_error(ssl, result)
        // SSL_get_error answers WANT_READ only with the queue empty.
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return false }
        broken = true
        throw handshakeFailure(error)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(LoopError) -> Int? {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        Self.clearErrors()
        var count = 0
        if SSL_read_ex(ssl, base, buffer.count, &count) == 1 { return count }
        switch SSL_get_error(ssl, 0) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            // Answered only with the queue empty: nothing to clear.
            return 0
        case SSL_ERROR_ZERO_RETURN:
            return nil
        case let error:
            broken = true
            throw protocolFailure(error, "SSL_read")
        }
    }

    var hasBufferedInput: Bool {
        SSL_pending(ssl) > 0 || BIO_ctrl_pending(input) > 0
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(LoopError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        Self.clearErrors()
        var written = 0
        // A memory BIO never blocks: the whole buffer is encoded at once.
        guard SSL_write_ex(ssl, base, bytes.count, &written) == 1, written == bytes.count else {
            broken = true
            throw protocolFailure(SSL_get_error(ssl, 0), "SSL_write")
        }
    }

    func takeOutput(_ body: (UnsafeRawBufferPointer) -> Void) {
        var bytes: UnsafeMutablePointer<CChar>?
        let count = compose_tls_bio_contents(output, &bytes)
        guard count > 0, let bytes else { return }
        body(UnsafeRawBufferPointer(start: bytes, count: count))
        compose_tls_bio_clear(output)
    }

    func endOutput() {
        guard !ended, !broken, SSL_is_init_finished(ssl) == 1 else { return }
        ended = true
        TLSErrors.clear()
        // 0 (sent, the peer's not received yet) is all this side waits for.
        _ = SSL_shutdown(ssl)
        TLSErrors.clear()
    }

    /// Empties the thread's error queue before an I/O call (OpenSSL's
    /// `SSL_get_error` needs it empty), if anything is on it: the calls
    /// of every message (a read, the read that finds no more, a write)
    /// find it empty, and `ERR_clear_error` on an empty queue still frees
    /// each of its 16 slots' strings (about 400 instructions, the largest
    /// difference per message with the C echo server; `make bench-tls`),
    /// where `ERR_peek_error` only looks.
    @inline(__always)
    private static func clearErrors() {
        if ERR_peek_error() != 0 { TLSErrors.clear() }
    }

    // MARK: The session

    /// The session's facts, once the handshake completed.
    var session: TLSSession? {
        guard SSL_is_init_finished(ssl) == 1 else { return nil }
        var selected: UnsafePointer<UInt8>?
        var selectedLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &selectedLength)
        let applicationProtocol = selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(selectedLength)), as: UTF8.self) }
        let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "unknown"
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "unknown"
        var subject: String?
        if let certificate = SSL_get0_peer_certificate(ssl) {
            subject = Self.subject(of: certificate)
        }
        var session = TLSSession(applicationProtocol: applicationProtocol?.isEmpty == false ? applicationProtocol : nil, protocolVersion: version, cipherSuite: cipher, peerCertificateSubject: subject)
        addAuthentication(to: &session)
        return session
    }

    // MARK: Failures

    /// A failed handshake: a rejected certificate (a client's
    /// verification), or what OpenSSL says.
    private func handshakeFailure(_ error: Int32) -> LoopError {
        let verification = SSL_get_verify_result(ssl)
        // A server verifies a chain only when it asks for its clients'.
        if verification != X509_V_OK {
            TLSErrors.clear()
            let reason = pinMismatch ?? X509_verify_cert_error_string(verification).map { String(cString: $0) } ?? "error \(verification)"
            return TLSErrors.verificationFailed(byServer: context.configuration.isServer, rejected: rejected.map { ($0.depth, $0.subject) }, reason: reason, peer: peer)
        }
        let reasons = TLSErrors.drainWithCodes()
        if let refusal = authenticationFailure(reasons) { return refusal }
        let why = reasons.isEmpty ? Self.describe(error) : reasons.map(\.text).joined(separator: "; ")
        return .tls(.tlsHandshakeFailed, operation: "TLS handshake", message: why, context: peer)
    }

    private func protocolFailure(_ error: Int32, _ operation: String) -> LoopError {
        let reasons = TLSErrors.drainWithCodes()
        // TLS 1.3: a server refuses a client's certificate (or its lack)
        // after the client's handshake completed.
        if let refusal = authenticationFailure(reasons) { return refusal }
        let why = reasons.isEmpty ? Self.describe(error) : reasons.map(\.text).joined(separator: "; ")
        return .tls(.tlsProtocolError, operation: operation, message: why, context: peer)
    }

    private static func describe(_ error: Int32) -> String {
        switch error {
        case SSL_ERROR_SYSCALL: "the connection ended in the middle of the protocol"
        case SSL_ERROR_SSL: "a protocol error"
        default: "OpenSSL error \(error)"
        }
    }

    // MARK: Verification

    /// The verification callback of every client context, and of a
    /// server context that asks for client certificates: notes the
    /// first certificate it rejects in its engine (found through the
    /// `SSL`'s ex_data slot), and leaves OpenSSL's verdict as it is,
    /// unless the chain verified and a client's pins match none of its
    /// keys (``pinMismatch(_:pins:)``): then it rejects the chain.
    static func noteVerification(_ preverified: Int32, _ store: OpaquePointer?) -> Int32 {
        guard let store,
              let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
              let slot = SSL_get_ex_data(OpaquePointer(ssl), exDataIndex)
        else { return preverified }
        // Unretained: see the type's documentation (the engine is inside
        // its own SSL_do_handshake call).
        let engine = Unmanaged<TLSEngine>.fromOpaque(slot).takeUnretainedValue()
        if preverified == 0 {
            if engine.rejected == nil {
                let name = X509_STORE_CTX_get_current_cert(store).map { subject(of: $0) } ?? "unknown subject"
                engine.rejected = (X509_STORE_CTX_get_error_depth(store), X509_STORE_CTX_get_error(store), name)
            }
            return preverified
        }
        // The chain verified up to the server's own certificate, the
        // last one checked: then its keys must match a pin.
        guard X509_STORE_CTX_get_error_depth(store) == 0, !engine.context.pins.isEmpty,
              let mismatch = pinMismatch(store, pins: engine.context.pins)
        else { return preverified }
        X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
        engine.pinMismatch = mismatch
        if engine.rejected == nil {
            let name = X509_STORE_CTX_get_current_cert(store).map { subject(of: $0) } ?? "unknown subject"
            engine.rejected = (0, X509_V_ERR_APPLICATION_VERIFICATION, name)
        }
        return 0
    }

    /// A certificate's subject, one line (`/CN=localhost/O=Example`).
    static func subject(of certificate: OpaquePointer) -> String {
        guard let name = X509_get_subject_name(certificate) else { return "unknown subject" }
        var text = [CChar](repeating: 0, count: 512)
        text.withUnsafeMutableBufferPointer { _ = X509_NAME_oneline(name, $0.baseAddress, Int32($0.count)) }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    nonisolated static func isNumericAddress(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
