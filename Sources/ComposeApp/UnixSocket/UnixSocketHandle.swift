internal import CLibUV

/// A `uv_pipe_t` on a Unix domain socket: a ``StreamHandle`` (reading,
/// writing, shutdown) plus binding to a path, listening, accepting and
/// connecting.
///
/// The `uv_connect_t` of ``connect(to:)`` is allocated per call and freed in
/// its completion callback, like the stream's requests (see
/// ``StreamHandle``). Closing a bound handle unlinks its socket file (libuv
/// does, in `uv_close`).
@MainActor
final class UnixSocketHandle: StreamHandle {
    /// A client is waiting to be accepted (or listening failed).
    var onConnection: (@MainActor (LoopError?) -> Void)?
    /// ``connect(to:)`` finished (with an error if it failed).
    var onConnect: (@MainActor (LoopError?) -> Void)?
    /// The socket file: the one bound, or for a connection the server's.
    var path = ""

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_pipe_t>.size, operation: "uv_pipe_init") { raw in
            uv_pipe_init(loop.uv, raw.assumingMemoryBound(to: uv_pipe_t.self), 0)
        }
    }

    var pipe: UnsafeMutablePointer<uv_pipe_t> { raw.assumingMemoryBound(to: uv_pipe_t.self) }

    override func releaseCallbacks() {
        super.releaseCallbacks()
        onConnection = nil
        onConnect = nil
    }

    // MARK: Server

    func bind(_ path: String) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_pipe_bind(pipe, path), "uv_pipe_bind", context: path)
        self.path = path
    }

    func listen(backlog: Int32) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_listen(stream, backlog, unixSocketHandleConnectionCallback), "uv_listen", context: path)
    }

    func accept(into client: UnixSocketHandle) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_accept(stream, client.stream), "uv_accept", context: path)
        client.path = path
    }

    // MARK: Client

    /// Connects to the socket at `path`; ``onConnect`` reports the end.
    func connect(to path: String) {
        assertOnLoopThread()
        self.path = path
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        uv_pipe_connect(request, pipe, path, unixSocketHandleConnectedCallback)
    }
}

/// ``unixSocketHandleConnection`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var unixSocketHandleConnectionCallback: uv_connection_cb { { unixSocketHandleConnection($0, $1) } }

@MainActor private func unixSocketHandleConnection(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    LoopHandle.dispatch(compose_uv_handle(server), as: UnixSocketHandle.self, status) { owner, status in
        owner.onConnection?(status < 0 ? LoopError("uv_listen", code: status, context: owner.path) : nil)
    }
}

/// ``unixSocketHandleConnected`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var unixSocketHandleConnectedCallback: uv_connect_cb { { unixSocketHandleConnected($0, $1) } }

@MainActor private func unixSocketHandleConnected(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = request.pointee.handle
    request.deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: UnixSocketHandle.self, status) { owner, status in
        owner.onConnect?(status < 0 ? LoopError("uv_pipe_connect", code: status, context: owner.path) : nil)
    }
}

extension UnixSocketHandle {
    /// Takes `fd`, a Unix socket made elsewhere (an inherited listener), as
    /// this handle's socket (`uv_pipe_open`); closing the handle closes it
    /// but never unlinks its file (libuv unlinks only what it bound).
    /// ``path`` becomes the path the socket is bound to, else `path`.
    func open(_ fd: Int32, path: String, describing socket: String) throws(LoopError) {
        assertOnLoopThread()
        try LoopError.check(uv_pipe_open(pipe, fd), "uv_pipe_open", context: socket)
        var buffer = [CChar](repeating: 0, count: 256)
        var size = buffer.count
        if uv_pipe_getsockname(pipe, &buffer, &size) == 0, size > 0, size < buffer.count {
            let bytes = buffer.prefix(size).prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            self.path = String(decoding: bytes, as: UTF8.self)
        } else {
            self.path = path
        }
    }
}
