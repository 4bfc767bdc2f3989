import Compose

extension Diagnostic.Code {
    /// Sockets the app inherited (socket activation, `LISTEN_FDS`) that no
    /// `TCPServer` or `UnixServer` listened on by the end of startup: a
    /// name that matches no server's `activationName`, or a socket more in
    /// the `.socket` unit than the app has servers. Reported once, naming
    /// each descriptor and what it is.
    public static let unclaimedInheritedSocket = Self(rawValue: "unclaimedInheritedSocket")
}
