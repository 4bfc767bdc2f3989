private import CLibSSL
#if canImport(Glibc)
private import Glibc
#endif
import ComposeApp

extension TLSContext {
    /// The certificate a server's context presents (the first of its
    /// chain): its file, subject and expiry, for inspection and the
    /// expiry metric. `nil` for a client's context.
    var serverCertificate: ListenerCertificate? {
        guard configuration.isServer, let file = configuration.certificateChainFile,
              let certificate = SSL_CTX_get0_certificate(context)
        else { return nil }
        var expiry = tm()
        // Its notAfter, in UTC; OpenSSL checked it when it read the file.
        guard ASN1_TIME_to_tm(X509_get0_notAfter(certificate), &expiry) == 1 else { return nil }
        return ListenerCertificate(file: file, subject: TLSEngine.subject(of: certificate), notAfter: Int64(timegm(&expiry)))
    }
}
