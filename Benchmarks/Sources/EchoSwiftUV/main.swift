// A floor, not a contender: the echo server of EchoC written in Swift
// straight on libuv (its callbacks, no Compose, no Foundation, no class):
// what any Swift program serving TCP on libuv costs in memory and startup
// before a line of Compose runs (docs/footprint.md). Same behaviour as
// EchoC: uv_try_write, the rest copied into a uv_write request, reading
// paused while 1 MiB or more is queued.
//
// Usage: EchoSwiftUV [PORT]; prints "listening PORT", runs until SIGTERM.

import CUV
#if canImport(Glibc)
import Glibc
#endif

let queueLimit = 1 << 20
/// The one read buffer (one loop thread), made once.
nonisolated(unsafe) let readBuffer = UnsafeMutableRawPointer.allocate(byteCount: 64 * 1024, alignment: 16)

/// One connection: the handle first, so a handle pointer is a connection pointer.
struct Connection {
    var tcp = uv_tcp_t()
    var queued = 0
    var paused = false
}

/// A write request and the bytes it writes, in one allocation.
struct WriteRequest {
    var request = uv_write_t()
    var length = 0
}

func connection(_ handle: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Connection> {
    handle.assumingMemoryBound(to: Connection.self)
}

func closeConnection(_ handle: UnsafeMutableRawPointer) {
    let handle = handle.assumingMemoryBound(to: uv_handle_t.self)
    if uv_is_closing(handle) == 0 {
        uv_close(handle) { free($0) }
    }
}

func onRead(_ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?) {
    guard let stream, let buffer else { return }
    let state = connection(UnsafeMutableRawPointer(stream))
    if count < 0 {
        closeConnection(UnsafeMutableRawPointer(stream))
        return
    }
    if count == 0 { return }
    var offset = 0
    if state.pointee.queued == 0 {
        var all = uv_buf_init(buffer.pointee.base, UInt32(count))
        let written = Int(uv_try_write(stream, &all, 1))
        if written == count { return }
        if written < 0 && written != Int(UV_EAGAIN.rawValue) {
            closeConnection(UnsafeMutableRawPointer(stream))
            return
        }
        if written > 0 { offset = written }
    }
    let rest = count - offset
    let memory = malloc(MemoryLayout<WriteRequest>.stride + rest)!
    let request = memory.bindMemory(to: WriteRequest.self, capacity: 1)
    request.initialize(to: WriteRequest(length: rest))
    let data = memory + MemoryLayout<WriteRequest>.stride
    data.copyMemory(from: buffer.pointee.base + offset, byteCount: rest)
    var queued = uv_buf_init(data.assumingMemoryBound(to: CChar.self), UInt32(rest))
    let result = uv_write(&request.pointee.request, stream, &queued, 1) { request, status in
        guard let request else { return }
        let written = UnsafeMutableRawPointer(request).assumingMemoryBound(to: WriteRequest.self)
        let state = connection(UnsafeMutableRawPointer(request.pointee.handle))
        state.pointee.queued -= written.pointee.length
        let handle = request.pointee.handle
        free(request)
        guard let handle else { return }
        if status < 0 {
            closeConnection(UnsafeMutableRawPointer(handle))
            return
        }
        if state.pointee.queued == 0, state.pointee.paused, uv_is_closing(UnsafeMutableRawPointer(handle).assumingMemoryBound(to: uv_handle_t.self)) == 0 {
            state.pointee.paused = false
            uv_read_start(handle, onAlloc, onRead)
        }
    }
    if result < 0 {
        free(memory)
        closeConnection(UnsafeMutableRawPointer(stream))
        return
    }
    state.pointee.queued += rest
    if state.pointee.queued >= queueLimit, !state.pointee.paused {
        state.pointee.paused = true
        uv_read_stop(stream)
    }
}

func onAlloc(_ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int, _ buffer: UnsafeMutablePointer<uv_buf_t>?) {
    buffer?.pointee = uv_buf_init(readBuffer.assumingMemoryBound(to: CChar.self), 64 * 1024)
}

func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

let port = CommandLine.arguments.count > 1 ? Int32(CommandLine.arguments[1]) ?? 0 : 0
signal(SIGPIPE, SIG_IGN)
let loop = uv_default_loop()
var server = uv_tcp_t()
uv_tcp_init(loop, &server)
var address = sockaddr_in()
uv_ip4_addr("127.0.0.1", port, &address)
var result = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(&server, $0, 0) } }
if result == 0 {
    result = withUnsafeMutablePointer(to: &server) { pointer in
        pointer.withMemoryRebound(to: uv_stream_t.self, capacity: 1) { stream in
            uv_listen(stream, 511) { server, status in
                guard status >= 0, let server else { return }
                let memory = calloc(1, MemoryLayout<Connection>.stride)!
                let client = memory.bindMemory(to: Connection.self, capacity: 1)
                uv_tcp_init(server.pointee.loop, &client.pointee.tcp)
                let stream = memory.assumingMemoryBound(to: uv_stream_t.self)
                if uv_accept(server, stream) < 0 {
                    closeConnection(memory)
                    return
                }
                uv_tcp_nodelay(&client.pointee.tcp, 1)
                uv_read_start(stream, onAlloc, onRead)
            }
        }
    }
}
if result < 0 {
    say("EchoSwiftUV: \(String(cString: uv_strerror(result)))")
    exit(1)
}
var bound = sockaddr_in()
var length = Int32(MemoryLayout<sockaddr_in>.size)
_ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_getsockname(&server, $0, &length) } }
say("listening \(UInt16(bigEndian: bound.sin_port))")
exit(uv_run(loop, UV_RUN_DEFAULT))
