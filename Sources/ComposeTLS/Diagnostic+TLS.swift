import ComposeApp

extension Diagnostic.Code {
    /// A TLS server could not reload its certificate (`TCPServer.reloadTLS()`,
    /// or a configuration reload, `SIGHUP`): a file missing or unreadable,
    /// not PEM, a key that does not match the certificate; or the server
    /// is not a listening TLS server. The message names the file and
    /// OpenSSL's reason (never anything of the key). The server goes on
    /// with the certificate it had.
    public static let tlsReloadFailed = Self(rawValue: "tlsReloadFailed")
}
