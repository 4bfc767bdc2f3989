private import CLibSSL
import ComposeApp

/// One `SSL_CTX`: the settings and certificates every connection of a
/// server (or a client's connection) is made from. Made from a
/// ``TLSConfiguration``, which it checks (files read, key matched);
/// freed in its deinit. Each ``TLSEngine`` holds its context, so the
/// context outlives every `SSL` made from it (and OpenSSL counts its own
/// references besides).
@MainActor
final class TLSContext {
    /// The `SSL_CTX`, owned: freed (`SSL_CTX_free`) in the deinit.
    let context: OpaquePointer
    let configuration: TLSConfiguration
    /// A server's ALPN protocols, which its selection callback reads
    /// (passed to OpenSSL unretained; this context holds them).
    private let protocols: ApplicationProtocols
    /// A server's contexts of its ``TLSConfiguration/additionalCertificates``,
    /// in order: the SNI callback (``selectCertificate(_:)``) switches a
    /// connection to the first whose certificate holds the name asked
    /// for. Set once, at the end of the init.
    var serverNames: [TLSContext] = []
    /// A client's ``TLSConfiguration/pinnedPublicKeys``, checked.
    let pins: [PublicKeyPin]

    /// - Throws: `LoopError.Code.tlsConfigurationInvalid` naming the
    ///   file or setting and OpenSSL's reason.
    init(_ configuration: TLSConfiguration) throws(LoopError) {
        if let misuse = configuration.authenticationMisuse() { throw misuse }
        self.configuration = configuration
        pins = configuration.pinnedPublicKeys.compactMap(PublicKeyPin.init)
        protocols = ApplicationProtocols(configuration.applicationProtocols)
        TLSErrors.clear()
        guard let context = SSL_CTX_new(configuration.isServer ? TLS_server_method() : TLS_client_method()) else {
            throw TLSErrors.invalid("SSL_CTX_new", "OpenSSL could not make a context", context: nil)
        }
        self.context = context
        let minimum = configuration.minimumVersion == .tls13 ? TLS1_3_VERSION : TLS1_2_VERSION
        guard compose_tls_set_min_version(context, minimum) == 1, compose_tls_set_max_version(context, TLS1_3_VERSION) == 1 else {
            throw TLSErrors.invalid("SSL_CTX_set_min_proto_version", "the protocol versions were refused", context: "\(configuration.minimumVersion)")
        }
        compose_tls_set_options(context)
        compose_tls_set_modes(context)
        guard SSL_CTX_set_cipher_list(context, configuration.ciphers) == 1 else {
            throw TLSErrors.invalid("SSL_CTX_set_cipher_list", "no cipher suite of the list is known", context: configuration.ciphers)
        }
        if configuration.isServer {
            try loadCertificate(configuration)
            try requestClientCertificates(configuration.clientAuthentication)
            if !configuration.applicationProtocols.isEmpty {
                // The callback finds the protocols through its argument:
                // unretained, this context holds them for as long as the
                // SSL_CTX (freed in the deinit) can call back.
                let argument = Unmanaged.passUnretained(protocols).toOpaque()
                SSL_CTX_set_alpn_select_cb(context, { _, selected, selectedLength, offered, offeredLength, argument in
                    guard let selected, let selectedLength, let offered, let argument else { return SSL_TLSEXT_ERR_NOACK }
                    let protocols = Unmanaged<ApplicationProtocols>.fromOpaque(argument).takeUnretainedValue()
                    let offer = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
                    guard let (start, count) = protocols.select(from: offer) else { return SSL_TLSEXT_ERR_ALERT_FATAL }
                    selected.pointee = offered + start
                    selectedLength.pointee = UInt8(count)
                    return SSL_TLSEXT_ERR_OK
                }, argument)
            }
            try loadServerNames(configuration)
        } else {
            try loadTrustRoots(configuration.trustRoots)
            try loadClientCertificate(configuration)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER) { preverified, store in
                TLSEngine.noteVerification(preverified, store)
            }
            if !protocols.wire.isEmpty {
                // 0 is success here (OpenSSL's exception); it copies the list.
                guard SSL_CTX_set_alpn_protos(context, protocols.wire, UInt32(protocols.wire.count)) == 0 else {
                    throw TLSErrors.invalid("SSL_CTX_set_alpn_protos", "the application protocols were refused", context: configuration.applicationProtocols.joined(separator: ","))
                }
            }
        }
    }

    isolated deinit {
        SSL_CTX_free(context)
    }

    func loadCertificate(_ configuration: TLSConfiguration) throws(LoopError) {
        guard let chain = configuration.certificateChainFile, let key = configuration.privateKeyFile else {
            throw TLSErrors.invalid("TLSConfiguration", "a server needs a certificate chain and a private key", context: nil)
        }
        guard SSL_CTX_use_certificate_chain_file(context, chain) == 1 else {
            throw TLSErrors.invalid("SSL_CTX_use_certificate_chain_file", "cannot use the certificate chain", context: chain)
        }
        guard SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) == 1 else {
            throw TLSErrors.invalid("SSL_CTX_use_PrivateKey_file", "cannot use the private key", context: key)
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw TLSErrors.invalid("SSL_CTX_check_private_key", "the private key does not match the certificate of \(chain)", context: key)
        }
    }

    private func loadTrustRoots(_ roots: TLSConfiguration.TrustRoots) throws(LoopError) {
        switch roots {
        case .system:
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw TLSErrors.invalid("SSL_CTX_set_default_verify_paths", "cannot use the system's trust store", context: nil)
            }
        case .file(let path):
            guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
                throw TLSErrors.invalid("SSL_CTX_load_verify_locations", "cannot use the trusted certificates", context: path)
            }
        }
    }
}

/// ALPN protocol names, in order of preference, as OpenSSL's wire format
/// (each name preceded by its length) and as byte arrays to match.
/// Immutable, so the selection callback may read it from OpenSSL.
final class ApplicationProtocols: Sendable {
    let names: [[UInt8]]
    let wire: [UInt8]

    init(_ protocols: [String]) {
        names = protocols.map { Array($0.utf8) }.filter { !$0.isEmpty && $0.count <= 255 }
        wire = names.flatMap { [UInt8($0.count)] + $0 }
    }

    /// The first of ours that `offer` (a client's list, in wire format)
    /// holds: its start and length in `offer`; `nil` if none. A
    /// malformed offer matches nothing past the malformation.
    func select(from offer: UnsafeBufferPointer<UInt8>) -> (start: Int, count: Int)? {
        for name in names {
            var index = 0
            while index < offer.count {
                let count = Int(offer[index])
                let start = index + 1
                guard start + count <= offer.count else { break }
                if count == name.count, offer[start..<start + count].elementsEqual(name) { return (start, count) }
                index = start + count
            }
        }
        return nil
    }
}
