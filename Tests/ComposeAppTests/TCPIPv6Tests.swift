@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Whether this machine can bind a TCP socket to `::1` (containers without
/// IPv6 cannot).
let hasIPv6Loopback: Bool = {
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
    }
}()

/// An echo server listening on an IPv6 host.
struct IPv6EchoServer: Component {
    let listener: TCPServer
    let clients = InstanceComponent<EchoComponent>()

    init(host: String) {
        listener = TCPServer(host: host, port: 0)
    }

    var observers: Void {
        listener += { connection in
            clients.add { EchoComponent(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
    }
}

/// A client connection to `host:port` and what it receives.
@MainActor
final class IPv6Client {
    var connection: TCPConnection?
    var received: [UInt8] = []
    var failure: LoopError?

    init(host: String, port: UInt16) {
        TCPConnection.connect(host: host, port: port) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                connection += { [weak self] chunk in chunk.withUnsafeBytes { self?.received.append(contentsOf: $0) } }
                connection.start()
            case .failure(let error):
                failure = error
            }
        }
    }
}

/// Real IPv6 sockets on `::1`, on a live loop.
@MainActor
@Suite(.serialized, .liveLoop, .enabled(if: hasIPv6Loopback, "this machine has no IPv6 loopback (::1)"))
struct TCPIPv6Tests {
    @Test(arguments: ["::1", "::"])
    func aServerOnAnIPv6HostEchoesToAClientOfLoopback(host: String) throws {
        let tree = ComponentTree(IPv6EchoServer(host: host))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let echo = try #require(tree.root.value(as: IPv6EchoServer.self))
        #expect(echo.listener.isListening)
        let client = IPv6Client(host: "::1", port: echo.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        #expect(client.failure == nil)
        let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        client.connection?.write(payload)
        #expect(LoopDriver.run(until: { client.received.count >= payload.count }))
        #expect(client.received == payload)
        #expect(echo.clients.count == 1)
        client.connection?.close()
    }

    @Test func connectingToAClosedIPv6PortIsRefusedNamingTheAddress() throws {
        let probe = TCPServer(host: "::1", port: 0)
        try probe.listen()
        let port = probe.port
        probe.close()
        LoopDriver.settle()
        let client = IPv6Client(host: "::1", port: port)
        #expect(LoopDriver.run(until: { client.failure != nil }))
        #expect(client.failure?.kind == .connectionRefused)
        #expect(client.failure?.description == "uv_tcp_connect failed: ECONNREFUSED (connection refused) for [::1]:\(port)")
    }
}
