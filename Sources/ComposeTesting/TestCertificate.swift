internal import ComposeApp

/// A certificate the test's side of a simulated TLS connection presents:
/// a scripted server's (``TestTLS/server(certificate:applicationProtocols:)``),
/// or a client's for mutual TLS (``TestTLS/client(serverName:applicationProtocols:certificate:)``).
/// It is a description, not a file: the app's TLS configuration judges
/// it as OpenSSL would judge a real one (its authority trusted or not, its
/// expiry against the wall clock, its names against the host, its key
/// against the app's pins) and fails with the same errors.
///
/// ```swift
/// let api = app.listen(port: 443, tls: .server(certificate: .expired))
/// let wrongHost = TestCertificate(names: ["other.example"])
/// let unknownCA = TestCertificate(names: ["localhost"], isTrusted: false)
/// ```
public struct TestCertificate: Sendable, Hashable {
    /// Its subject, one line (`/CN=localhost`), as `TLSSession` reports it.
    public var subject: String
    /// The names it holds (its subject alternative names): host names
    /// (`*.example.com` for any one label), numeric addresses.
    public var names: [String]
    /// When it expires: the time since the Unix epoch (UTC), compared
    /// with the wall clock (as OpenSSL does), not the app's virtual one.
    public var notAfter: Duration
    /// Whether an authority the app trusts signed it; `false` for an
    /// unknown authority (the app's connection fails with
    /// `tlsVerificationFailed`: "unable to get local issuer certificate").
    public var isTrusted: Bool
    /// The pin of its public key (`sha256/` and 44 characters of base64),
    /// matched against the app's `TLSConfiguration.pinnedPublicKeys`.
    public var publicKeyPin: String

    /// 2100-01-01 00:00 UTC: the default expiry, far enough.
    public static let farFuture: Duration = .seconds(4_102_444_800)
    /// The pin of every certificate's key unless given.
    public static let defaultPublicKeyPin = "sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    /// - Parameters:
    ///   - subject: Its subject (`/CN=` and the first name by default).
    ///   - names: The names it holds.
    ///   - notAfter: When it expires (2100 by default).
    ///   - isTrusted: Whether an authority the app trusts signed it.
    ///   - publicKeyPin: Its key's pin.
    public init(
        subject: String? = nil,
        names: [String] = ["localhost", "127.0.0.1"],
        notAfter: Duration = TestCertificate.farFuture,
        isTrusted: Bool = true,
        publicKeyPin: String = TestCertificate.defaultPublicKeyPin
    ) {
        self.subject = subject ?? "/CN=\(names.first ?? "test")"
        self.names = names
        self.notAfter = notAfter
        self.isTrusted = isTrusted
        self.publicKeyPin = publicKeyPin
    }

    /// A valid certificate for `localhost` and `127.0.0.1`, from a trusted
    /// authority.
    public static let localhost = TestCertificate()

    /// ``localhost``, expired on 2000-01-01.
    public static let expired = TestCertificate(notAfter: .seconds(946_684_800))

    /// ``localhost``, signed by an authority the app does not trust.
    public static let unknownAuthority = TestCertificate(isTrusted: false)

    var simulated: SimulatedCertificate {
        SimulatedCertificate(subject: subject, names: names, notAfter: notAfter.components.seconds, isTrusted: isTrusted, publicKeyPin: publicKeyPin)
    }
}
