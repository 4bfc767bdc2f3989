@_spi(Testing) import ComposeApp
import ComposeHTTPS
import Foundation
import Testing

extension HTTPTestAPI {
    /// The test API over TLS.
    init(tls: TLSConfiguration, limits: HTTPServer.Limits = HTTPServer.Limits(), log: HTTPLog) {
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, tls: tls)
        self.log = log
    }
}

/// The health endpoints and a route the test answers, over TLS.
private struct HTTPSHealthAPI: Component {
    let server: HTTPServer
    let log: HTTPLog

    var observers: Void {
        server.serveHealth()
        server.route(.get, "/later/:id") += { exchange in
            log.paths.append(exchange.path)
            log.kept.append(exchange)
        }
    }
}

/// `HTTPServer(port:tls:)` (ComposeHTTPS) over real sockets, with curl
/// and Python's `http.client` and `ssl` as peers trusting the test CA:
/// the same routes, keep-alive, limits, timeouts, health endpoints and
/// drain as over plain TCP.
@MainActor
@Suite(.serialized, .liveLoop) struct HTTPSTests {
    private func start(
        _ certificates: TLSCertificates,
        _ configure: (inout HTTPServer.Limits) -> Void = { _ in }
    ) throws -> (ComponentTree, HTTPServer, HTTPLog) {
        var limits = HTTPServer.Limits()
        configure(&limits)
        let log = HTTPLog()
        let tls = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key)
        let tree = ComponentTree(HTTPTestAPI(tls: tls, limits: limits, log: log))
        tree.activate()
        let api = try #require(tree.root.value(as: HTTPTestAPI.self))
        #expect(api.server.isListening)
        return (tree, api.server, log)
    }

    /// A Python `ssl` context trusting the test CA and offering ALPN
    /// `http/1.1`, as `ctx`.
    private func pythonContext(_ certificates: TLSCertificates) -> String {
        """
        import ssl
        ctx = ssl.create_default_context(cafile="\(certificates.authority)")
        ctx.set_alpn_protocols(["http/1.1"])
        """
    }

    @Test func curlGetsAndPostsOnOneConnectionWithALPN() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try start(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        #expect(server.tlsConfiguration?.applicationProtocols == ["http/1.1"])
        let base = "https://localhost:\(server.port)"
        let (out, err) = try runPeer("/usr/bin/curl", [
            "-sv", "--cacert", certificates.authority, "\(base)/hello/ada", "\(base)/hello/grace",
        ])
        #expect(out == "hello ada\nhello grace", "\(out)\(err)")
        #expect(err.contains("ALPN: server accepted http/1.1"), "\(err)")
        #expect(err.contains("Re-using existing connection"), "\(err)")
        #expect(err.components(separatedBy: "Connected to").count == 2, "one connection: \(err)")
        let (echo, echoErr) = try runPeer("/usr/bin/curl", [
            "-s", "--cacert", certificates.authority, "--data-binary", String(repeating: "z", count: 3000), "\(base)/echo",
        ])
        #expect(echo == String(repeating: "z", count: 3000), "\(echoErr)")
        #expect(log.bodies.map(\.count) == [3000])
    }

    @Test func pythonsHTTPClientKeepsAliveOverTLSAndMeetsTheLimits() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, _) = try start(certificates) { $0.maximumHeaderCount = 10 }
        defer { tree.destroy(); LoopDriver.settle() }
        let script = pythonContext(certificates) + """

        import http.client, sys
        c = http.client.HTTPSConnection("localhost", int(sys.argv[1]), context=ctx)
        def show(r):
            print(r.status, r.getheader("Connection"), repr(r.read()))
        c.request("GET", "/hello/py"); show(c.getresponse())
        sock = c.sock
        print("alpn", sock.selected_alpn_protocol(), sock.version() is not None)
        c.request("POST", "/echo", body=b"x" * 5000); r = c.getresponse(); print(r.status, len(r.read()))
        c.request("GET", "/hello/again"); show(c.getresponse())
        print("same socket", c.sock is sock)
        c.request("GET", "/hello/many", headers={"X-H%d" % i: "v" for i in range(11)}); show(c.getresponse())
        """
        let (out, err) = try runPeer("/usr/bin/python3", ["-c", script, "\(server.port)"])
        #expect(out.split(separator: "\n").map(String.init) == [
            "200 None b'hello py\\n'",
            "alpn http/1.1 True",
            "200 5000",
            "200 None b'hello again\\n'",
            "same socket True",
            "431 close b'431 Request Header Fields Too Large\\n'",
        ], "\(out)\(err)")
    }

    @Test func theHeaderTimeoutHoldsAfterTheHandshake() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try start(certificates) { $0.headerReadTimeout = .milliseconds(300) }
        defer { tree.destroy(); LoopDriver.settle() }
        // One client completes the handshake and sends nothing: closed at
        // the timeout, without an answer. One sends half a head: 408.
        let script = pythonContext(certificates) + """

        import socket, sys, time
        def until_end(s):
            data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
            except (ssl.SSLEOFError, ConnectionResetError):
                pass
            return data
        for half in [b"", b"GET /hello/a HTTP/1.1\\r\\nHost: loc"]:
            s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))), server_hostname="localhost")
            s.settimeout(10)
            start = time.monotonic()
            if half: s.sendall(half)
            data = until_end(s)
            print(repr(data.split(b"\\r\\n")[0]), time.monotonic() - start >= 0.25)
        """
        let (out, err) = try runPeer("/usr/bin/python3", ["-c", script, "\(server.port)"])
        #expect(out.split(separator: "\n").map(String.init) == [
            "b'' True",
            "b'HTTP/1.1 408 Request Timeout' True",
        ], "\(out)\(err)")
        #expect(log.paths.isEmpty)
    }

    @Test func healthAndReadinessThroughADrainOverTLS() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let log = HTTPLog()
        let tls = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key)
        let tree = ComponentTree(HTTPSHealthAPI(server: HTTPServer(port: 0, tls: tls), log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let server = try #require(tree.root.value(as: HTTPSHealthAPI.self)?.server)
        let shutdown = tree.context.shutdown
        shutdown.didStart()
        let base = "https://localhost:\(server.port)"
        let (probes, probeErr) = try runPeer("/usr/bin/curl", [
            "-s", "--cacert", certificates.authority, "-w", " %{http_code}\n", "\(base)/readyz", "\(base)/healthz",
        ])
        #expect(probes == "ready\n 200\nok\n 200", "\(probes)\(probeErr)")

        // A request in flight and a probe's head begun when the drain
        // starts; the probe's head ends during the drain.
        let script = pythonContext(certificates) + """

        import socket, sys
        s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1]))), server_hostname="localhost")
        s.sendall(b"GET /later/1 HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET /readyz HTTP/1.1\\r\\nHost: x\\r\\n")
        print("sent", flush=True)
        sys.stdin.readline()
        s.sendall(b"\\r\\n")
        data = b""
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
        except ssl.SSLEOFError:
            pass
        for answer in data.split(b"HTTP/1.1 ")[1:]:
            print(answer[:3].decode(), repr(answer.split(b"\\r\\n\\r\\n")[-1]), b"Connection: close" in answer)
        """
        let peer = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", script, "\(server.port)"])
        #expect(LoopDriver.run(until: { log.paths == ["/later/1"] && peer.output.text.contains("sent") }), "\(peer.transcript)")
        shutdown.request()
        #expect(shutdown.phase == .draining)
        #expect(!server.isListening)
        log.kept.first?.respond(.ok, text: "finished\n")
        log.kept = []
        try peer.writeStdin("go\n")
        #expect(LoopDriver.run(until: { !peer.isRunning && peer.output.hasEnded && peer.errors.hasEnded }), "\(peer.transcript)")
        #expect(peer.output.text.split(separator: "\n").map(String.init) == [
            "sent",
            "200 b'finished\\n' False",
            "503 b'draining\\n' True",
        ], "\(peer.transcript)")
    }
}
