internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A `uv_tcp_t`: a ``StreamHandle`` (reading, writing, shutdown) plus what
/// is TCP's: binding, listening, accepting, connecting, `TCP_NODELAY` and
/// addresses.
///
/// The `uv_connect_t` of ``connect(to:)`` is allocated per call and freed in
/// its completion callback, like the stream's requests (see
/// ``StreamHandle``).
@MainActor
final class TCPHandle: StreamHandle {
    /// A client is waiting to be accepted (or listening failed).
    var onConnection: (@MainActor (LoopError?) -> Void)?
    /// ``connect(to:)`` finished (with an error if it failed).
    var onConnect: (@MainActor (LoopError?) -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_tcp_t>.size, operation: "uv_tcp_init") { raw in
            uv_tcp_init(loop.uv, raw.assumingMemoryBound(to: uv_tcp_t.self))
        }
    }

    /// A handle whose socket, of `family` (`AF_INET` or `AF_INET6`), is
    /// made at once (`uv_tcp_init_ex`), so that options can be set on it
    /// before it is bound (see ``setReusePort()``).
    init(loop: EventLoop, family: Int32) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_tcp_t>.size, operation: "uv_tcp_init_ex") { raw in
            uv_tcp_init_ex(loop.uv, raw.assumingMemoryBound(to: uv_tcp_t.self), UInt32(family))
        }
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { raw.assumingMemoryBound(to: uv_tcp_t.self) }

    override func releaseCallbacks() {
        super.releaseCallbacks()
        onConnection = nil
        onConnect = nil
    }

    // MARK: Server

    func bind(_ address: SocketAddress) throws(LoopError) {
        assertOnLoopThread()
        let result = address.withSockaddr { uv_tcp_bind(tcp, $0, 0) }
        try LoopError.check(result, "uv_tcp_bind", context: address.description)
    }

    func listen(backlog: Int32, address: String) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_listen(stream, backlog, tcpHandleConnectionCallback), "uv_listen", context: address)
    }

    func accept(into client: TCPHandle) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_accept(stream, client.stream), "uv_accept")
    }

    // MARK: Client

    func connect(to address: SocketAddress) throws(LoopError) {
        assertOnLoopThread()
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        let result = address.withSockaddr { uv_tcp_connect(request, tcp, $0, tcpHandleConnectedCallback) }
        if result < 0 {
            request.deallocate()
            throw LoopError("uv_tcp_connect", code: result, context: address.description)
        }
    }

    /// Closes the handle and resets the connection: `SO_LINGER` 0, so the
    /// kernel drops what it still holds to send and the peer gets a RST
    /// rather than a FIN behind that data (`uv_tcp_close_reset`). While a
    /// shutdown is pending libuv refuses (`EINVAL`); the option is then
    /// set here before a plain `uv_close`, to the same effect.
    func closeResetting() {
        close { handle, callback in
            guard uv_tcp_close_reset(tcp, callback) != 0 else { return }
            var fd: uv_os_fd_t = -1
            if uv_fileno(handle, &fd) == 0 {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            uv_close(handle, callback)
        }
    }

    func setNoDelay(_ enabled: Bool) {
        uv_tcp_nodelay(tcp, enabled ? 1 : 0)
    }

    /// The socket's `TCP_NODELAY`, `SO_KEEPALIVE` and `TCP_KEEPIDLE`
    /// (seconds), read back from the kernel; `nil` if it has no socket.
    var socketOptions: (noDelay: Bool, keepAlive: Bool, keepIdle: Int32)? {
        var fd: uv_os_fd_t = -1
        guard uv_fileno(handle, &fd) == 0 else { return nil }
        func option(_ level: Int32, _ name: Int32) -> Int32 {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, level, name, &value, &size)
            return value
        }
        return (option(Int32(IPPROTO_TCP), TCP_NODELAY) != 0, option(SOL_SOCKET, SO_KEEPALIVE) != 0, option(Int32(IPPROTO_TCP), TCP_KEEPIDLE))
    }

    /// Turns TCP keepalive on (first probe after `idle`, at least 1 s) or
    /// off (`nil`).
    func setKeepAlive(_ idle: Duration?) {
        guard let idle else {
            uv_tcp_keepalive(tcp, 0, 0)
            return
        }
        uv_tcp_keepalive(tcp, 1, UInt32(max(1, idle.components.seconds)))
    }

    // MARK: Addresses

    var peerAddress: (host: String, port: UInt16)? {
        address(uv_tcp_getpeername)
    }

    var localAddress: (host: String, port: UInt16)? {
        address(uv_tcp_getsockname)
    }

    /// The address `get` (`uv_tcp_getpeername` or `uv_tcp_getsockname`)
    /// reports for this socket, or `nil` if it fails.
    private func address(
        _ get: (UnsafePointer<uv_tcp_t>?, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<Int32>?) -> Int32
    ) -> (host: String, port: UInt16)? {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { get(tcp, $0, &length) }
        }
        return result == 0 ? SocketAddress.describe(storage) : nil
    }
}

/// ``tcpHandleConnection`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var tcpHandleConnectionCallback: uv_connection_cb { { tcpHandleConnection($0, $1) } }

@MainActor private func tcpHandleConnection(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    LoopHandle.dispatch(compose_uv_handle(server), as: TCPHandle.self, status) { owner, status in
        owner.onConnection?(status < 0 ? LoopError("uv_listen", code: status) : nil)
    }
}

/// ``tcpHandleConnected`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var tcpHandleConnectedCallback: uv_connect_cb { { tcpHandleConnected($0, $1) } }

@MainActor private func tcpHandleConnected(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = request.pointee.handle
    request.deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: TCPHandle.self, status) { owner, status in
        owner.onConnect?(status < 0 ? LoopError("uv_tcp_connect", code: status) : nil)
    }
}
