internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A `uv_tcp_t`: listening, accepting, connecting, reading and writing.
///
/// Requests (`uv_write_t`, `uv_shutdown_t`, `uv_connect_t`) are allocated
/// per call and freed in their completion callback, which libuv always
/// calls, with `UV_ECANCELED` when the handle closes first. The handle
/// itself outlives them: libuv calls every pending request callback before
/// the close callback that releases it.
@MainActor
final class TCPHandle: LoopHandle {
    var onConnection: (@MainActor (LoopError?) -> Void)?
    var onRead: (@MainActor (ByteChunk) -> Void)?
    /// End of input (`nil`) or a read error.
    var onEnd: (@MainActor (LoopError?) -> Void)?
    /// A queued write finished (its byte count, and an error if it failed).
    var onWriteCompleted: (@MainActor (Int, LoopError?) -> Void)?
    var onShutdown: (@MainActor (LoopError?) -> Void)?
    var onConnect: (@MainActor (LoopError?) -> Void)?

    init(loop: EventLoop) throws(LoopError) {
        try super.init(loop: loop, size: MemoryLayout<uv_tcp_t>.size, operation: "uv_tcp_init") { raw in
            uv_tcp_init(loop.uv, raw.assumingMemoryBound(to: uv_tcp_t.self))
        }
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { raw.assumingMemoryBound(to: uv_tcp_t.self) }
    var stream: UnsafeMutablePointer<uv_stream_t> { compose_uv_stream(raw) }

    override func releaseCallbacks() {
        onConnection = nil
        onRead = nil
        onEnd = nil
        onWriteCompleted = nil
        onShutdown = nil
        onConnect = nil
    }

    // MARK: Server

    func bind(_ address: SocketAddress) throws(LoopError) {
        let result = address.withSockaddr { uv_tcp_bind(tcp, $0, 0) }
        try LoopError.check(result, "uv_tcp_bind", context: address.description)
    }

    func listen(backlog: Int32, address: String) throws(LoopError) {
        try LoopError.check(uv_listen(stream, backlog, tcpHandleConnection), "uv_listen", context: address)
    }

    func accept(into client: TCPHandle) throws(LoopError) {
        try LoopError.check(uv_accept(stream, client.stream), "uv_accept")
    }

    // MARK: Client

    func connect(to address: SocketAddress) throws(LoopError) {
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        let result = address.withSockaddr { uv_tcp_connect(request, tcp, $0, tcpHandleConnected) }
        if result < 0 {
            request.deallocate()
            throw LoopError("uv_tcp_connect", code: result, context: address.description)
        }
    }

    // MARK: Reading

    func startReading() throws(LoopError) {
        guard !isClosing else { return }
        try LoopError.check(uv_read_start(stream, tcpHandleAllocate, tcpHandleRead), "uv_read_start")
    }

    func stopReading() {
        guard !isClosing else { return }
        uv_read_stop(stream)
    }

    // MARK: Writing

    /// Writes what the socket takes right now. Returns the bytes written
    /// (0 when it would block), or throws.
    func tryWrite(_ bytes: UnsafeRawBufferPointer) throws(LoopError) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        var buffer = uv_buf_init(UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self)), UInt32(bytes.count))
        let result = uv_try_write(stream, &buffer, 1)
        if result == UV_EAGAIN.rawValue || result == UV_ENOSYS.rawValue { return 0 }
        try LoopError.check(result, "uv_try_write")
        return Int(result)
    }

    /// Queues a copy of `bytes`; ``onWriteCompleted`` reports its end.
    func write(copying bytes: UnsafeRawBufferPointer) throws(LoopError) {
        let header = MemoryLayout<uv_write_t>.stride
        let memory = UnsafeMutableRawPointer.allocate(byteCount: header + bytes.count, alignment: 16)
        let request = memory.assumingMemoryBound(to: uv_write_t.self)
        let payload = memory + header
        if let base = bytes.baseAddress { payload.copyMemory(from: base, byteCount: bytes.count) }
        request.pointee.data = UnsafeMutableRawPointer(bitPattern: bytes.count)
        var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(bytes.count))
        let result = uv_write(request, stream, &buffer, 1, tcpHandleWritten)
        if result < 0 {
            memory.deallocate()
            throw LoopError("uv_write", code: result)
        }
    }

    /// Half-closes: sends FIN after every queued write.
    func shutdown() throws(LoopError) {
        let request = UnsafeMutablePointer<uv_shutdown_t>.allocate(capacity: 1)
        let result = uv_shutdown(request, stream, tcpHandleShutDown)
        if result < 0 {
            request.deallocate()
            throw LoopError("uv_shutdown", code: result)
        }
    }

    func setNoDelay(_ enabled: Bool) {
        uv_tcp_nodelay(tcp, enabled ? 1 : 0)
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

/// libuv reads one socket at a time on the loop thread, each chunk is
/// delivered before the next read, so one buffer serves every connection of
/// a loop (EventLoop.readBuffer(of:) replaces it if a chunk of it was kept).
private func tcpHandleAllocate(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    guard let handle else { return }
    let memory = EventLoop.readBuffer(of: handle.pointee.loop).memory
    buffer?.pointee = uv_buf_init(memory.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(memory.count))
}

private func tcpHandleRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    guard let stream, count != 0 else { return }
    // The buffer the allocation callback just handed out.
    let chunk = count > 0 ? ByteChunk(buffer: EventLoop.readBuffer(of: stream.pointee.loop), count: count) : nil
    LoopHandle.dispatch(compose_uv_handle(stream), as: TCPHandle.self, (chunk, count)) { owner, read in
        let (chunk, count) = read
        if let chunk {
            owner.onRead?(chunk)
        } else if count == Int(UV_EOF.rawValue) {
            owner.onEnd?(nil)
        } else {
            owner.onEnd?(LoopError("uv_read", code: Int32(count)))
        }
    }
}

private func tcpHandleConnection(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
    LoopHandle.dispatch(compose_uv_handle(server), as: TCPHandle.self, status) { owner, status in
        owner.onConnection?(status < 0 ? LoopError("uv_listen", code: status) : nil)
    }
}

private func tcpHandleWritten(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
    guard let request else { return }
    let count = Int(bitPattern: request.pointee.data)
    let stream = request.pointee.handle
    UnsafeMutableRawPointer(request).deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: TCPHandle.self, (count, status)) { owner, written in
        let (count, status) = written
        owner.onWriteCompleted?(count, status < 0 ? LoopError("uv_write", code: status) : nil)
    }
}

private func tcpHandleShutDown(_ request: UnsafeMutablePointer<uv_shutdown_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = request.pointee.handle
    request.deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: TCPHandle.self, status) { owner, status in
        owner.onShutdown?(status < 0 ? LoopError("uv_shutdown", code: status) : nil)
    }
}

private func tcpHandleConnected(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
    guard let request else { return }
    let stream = request.pointee.handle
    request.deallocate()
    LoopHandle.dispatch(compose_uv_handle(stream), as: TCPHandle.self, status) { owner, status in
        owner.onConnect?(status < 0 ? LoopError("uv_tcp_connect", code: status) : nil)
    }
}
