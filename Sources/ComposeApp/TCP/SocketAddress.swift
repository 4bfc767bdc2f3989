internal import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address and port, parsed from a numeric host.
struct SocketAddress: CustomStringConvertible {
    var storage = sockaddr_storage()
    let description: String

    /// Parses `host` (an IPv4 or IPv6 literal; `localhost` means
    /// `127.0.0.1`) and `port`.
    init(host: String, port: UInt16) throws(LoopError) {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        description = numeric.contains(":") ? "[\(numeric)]:\(port)" : "\(numeric):\(port)"
        var result: Int32 = 0
        if numeric.contains(":") {
            result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { uv_ip6_addr(numeric, Int32(port), $0) }
            }
        } else {
            result = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_addr(numeric, Int32(port), $0) }
            }
        }
        try LoopError.check(result, "uv_ip_addr", context: "host \"\(host)\" (give an IPv4 or IPv6 address)")
    }

    /// An address the resolver found (a copy of `address`, `length`
    /// bytes), with `port`.
    init?(_ address: UnsafePointer<sockaddr>, length: Int, port: UInt16) {
        guard length <= MemoryLayout<sockaddr_storage>.size else { return nil }
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length)) }
        guard let (host, _) = Self.describe(storage) else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port.bigEndian } }
            description = "\(host):\(port)"
        case AF_INET6:
            withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = port.bigEndian } }
            description = "[\(host)]:\(port)"
        default:
            return nil
        }
    }

    /// Whether `host` is an IPv4 or IPv6 literal (no resolution needed).
    static func isNumeric(_ host: String) -> Bool {
        var probe = sockaddr_storage()
        return withUnsafeMutablePointer(to: &probe) { pointer in
            host.contains(":")
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { uv_ip6_addr(host, 0, $0) } == 0
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { uv_ip4_addr(host, 0, $0) } == 0
        }
    }

    /// Formats a socket address libuv filled in.
    static func describe(_ storage: sockaddr_storage) -> (host: String, port: UInt16)? {
        var copy = storage
        var name = [CChar](repeating: 0, count: 64)
        switch Int32(copy.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    uv_ip4_name(address, &name, name.count)
                    return (Self.string(name), UInt16(bigEndian: address.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &copy) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    uv_ip6_name(address, &name, name.count)
                    return (Self.string(name), UInt16(bigEndian: address.pointee.sin6_port))
                }
            }
        default:
            return nil
        }
    }

    private static func string(_ characters: [CChar]) -> String {
        let bytes = characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
        }
    }
}
