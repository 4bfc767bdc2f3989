internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

extension TCPHandle {
    /// Takes `fd`, a socket made elsewhere (an inherited listener), as this
    /// handle's socket (`uv_tcp_open`); closing the handle closes it.
    func open(_ fd: Int32, describing socket: String) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_tcp_open(tcp, fd), "uv_tcp_open", context: socket)
    }

    /// Sets `SO_REUSEPORT` on the handle's socket, which must exist already
    /// (``init(loop:family:)``) and not be bound yet: several sockets, of
    /// this process or others of the same user, may then bind the same
    /// address and port, and the kernel spreads incoming connections
    /// among them. libuv 1.44 has no flag for it.
    ///
    /// - Throws: `uv_fileno`'s or `setsockopt`'s ``LoopError``, naming
    ///   `address`.
    func setReusePort(address: String) throws(LoopError) {
        assertOnLoopThread()
        var fd: uv_os_fd_t = -1
        try LoopError.check(uv_fileno(handle, &fd), "uv_fileno", context: address)
        var on: Int32 = 1
        if setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            throw LoopError("setsockopt(SO_REUSEPORT)", errno: errno, context: address)
        }
    }
}
