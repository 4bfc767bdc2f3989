internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Resolves a host name with libuv's `uv_getaddrinfo`, which runs the
/// system resolver (`/etc/hosts`, then DNS, as `nsswitch.conf` says) on
/// libuv's thread pool: the loop never blocks on it. The addresses come
/// back on the loop thread, in the resolver's order.
@MainActor
enum HostResolver {
    /// Resolves `host` for TCP on `loop`; `completion` gets its addresses
    /// with `port`, or a ``LoopError`` (``LoopError/Code/hostNotFound`` when
    /// the name has no address).
    static func resolve(
        _ host: String,
        port: UInt16,
        on loop: EventLoop,
        _ completion: @escaping @MainActor (Result<[SocketAddress], LoopError>) -> Void
    ) {
        let request = UnsafeMutablePointer<uv_getaddrinfo_t>.allocate(capacity: 1)
        let pending = Pending(host: host, port: port, completion: completion)
        request.pointee.data = Unmanaged.passRetained(pending).toOpaque()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let result = uv_getaddrinfo(loop.uv, request, hostResolvedCallback, host, nil, &hints)
        if result < 0 {
            Unmanaged<Pending>.fromOpaque(request.pointee.data).release()
            request.deallocate()
            completion(.failure(LoopError("uv_getaddrinfo", code: result, context: "host \"\(host)\"")))
        }
    }

    /// What a request resolves for.
    final class Pending {
        let host: String
        let port: UInt16
        let completion: @MainActor (Result<[SocketAddress], LoopError>) -> Void

        init(host: String, port: UInt16, completion: @escaping @MainActor (Result<[SocketAddress], LoopError>) -> Void) {
            self.host = host
            self.port = port
            self.completion = completion
        }
    }
}

/// ``hostResolved`` as the C function pointer libuv takes: a closure literal
/// formed and returned by main-actor code, so the pointer carries the
/// main-actor isolation the loop guarantees (``LoopHandle/dispatch(_:as:counted:_:_:)``
/// says why it holds). Returned, not written at the registration: a
/// main-actor closure handed straight to a C function gets a runtime
/// executor check on every call (about 220 instructions).
@MainActor private var hostResolvedCallback: uv_getaddrinfo_cb { { hostResolved($0, $1, $2) } }

@MainActor private func hostResolved(_ request: UnsafeMutablePointer<uv_getaddrinfo_t>?, _ status: Int32, _ list: UnsafeMutablePointer<addrinfo>?) {
    guard let request else { return }
    let pending = Unmanaged<HostResolver.Pending>.fromOpaque(request.pointee.data).takeRetainedValue()
    request.deallocate()
    var addresses: [SocketAddress] = []
    var next = list
    while let entry = next {
        if let address = entry.pointee.ai_addr, let found = SocketAddress(address, length: Int(entry.pointee.ai_addrlen), port: pending.port) {
            addresses.append(found)
        }
        next = entry.pointee.ai_next
    }
    if let list { uv_freeaddrinfo(list) }
    let result: Result<[SocketAddress], LoopError>
    if status < 0 {
        result = .failure(LoopError("uv_getaddrinfo", code: status, context: "host \"\(pending.host)\""))
    } else if addresses.isEmpty {
        result = .failure(LoopError("uv_getaddrinfo", code: UV_EAI_NODATA.rawValue, context: "host \"\(pending.host)\""))
    } else {
        result = .success(addresses)
    }
    pending.completion(result)
}
