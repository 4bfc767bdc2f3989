internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel says
/// (`SO_PEERCRED`): the process and user that connected. The inspection
/// server admits only its own user.
struct PeerCredentials: Sendable, Hashable {
    let pid: Int32
    let uid: UInt32
    let gid: UInt32

    /// The kernel's `struct ucred` (pid, uid, gid), which Glibc exports
    /// only with `_GNU_SOURCE`; its layout is the kernel's ABI.
    private struct Ucred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The credentials of the peer of the connected socket `fd`.
    ///
    /// - Throws: `getsockopt`'s ``LoopError``.
    static func of(socket fd: Int32) throws(LoopError) -> PeerCredentials {
        var credentials = Ucred()
        var length = socklen_t(MemoryLayout<Ucred>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            throw LoopError("getsockopt(SO_PEERCRED)", errno: errno)
        }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid)
    }

    /// The credentials of the peer of the connected Unix socket `handle`.
    @MainActor
    static func of(_ handle: UnixSocketHandle) throws(LoopError) -> PeerCredentials {
        var fd: uv_os_fd_t = -1
        try LoopError.check(uv_fileno(handle.handle, &fd), "uv_fileno", context: handle.path)
        return try of(socket: fd)
    }

    /// Whether a peer with these credentials may inspect an app run by
    /// `uid`: only the same user may (not even root, which could read the
    /// app's memory anyway but should say so by switching user).
    func mayInspect(appUID uid: UInt32) -> Bool {
        self.uid == uid
    }
}
