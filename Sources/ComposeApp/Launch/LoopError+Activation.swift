internal import CLibUV

extension LoopError {
    /// An inherited descriptor (`socket`) is not what `server` needs
    /// (see ``Code/inheritedSocketMismatch``): it `is` one thing and
    /// `expected` another; `errno` says why in errno terms.
    static func inheritedSocketMismatch(_ socket: InheritedSocket, is found: String, expected: String, server: String, errno: Int32) -> LoopError {
        LoopError(
            operation: "\(server).listen",
            code: -errno,
            kind: .inheritedSocketMismatch,
            name: String(cString: uv_err_name(-errno)),
            message: "the inherited \(socket) (LISTEN_FDS) is \(found); it needs \(expected)",
            context: nil
        )
    }
}
