@_spi(Testing) @testable import ComposeApp
import ComposeTLS
import Foundation
import MetricsTestKit
import Testing

/// Echoes each line over TLS.
private struct OperatedTLSServer: Component {
    let listener: TCPServer
    let sessions = InstanceComponent<OperatedTLSSession>()
    let log: OperationLog
    var observers: Void {
        listener += { connection in
            log.accepted.append(connection)
            sessions.add { OperatedTLSSession(connection: connection) }
        }
        listener.errors += { error in log.listenErrors.append(error) }
        sessions.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

private struct OperatedTLSSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line) }
    }
}

@MainActor
private final class OperationLog {
    var accepted: [TCPConnection] = []
    var errors: [LoopError] = []
    var listenErrors: [LoopError] = []
}

/// A TLS client of the library that talks without pause: each echo of
/// its line sends the next, until ``stop()``.
@MainActor
private final class TalkingClient {
    var connection: TCPConnection?
    var failure: LoopError?
    var closed: TCPConnection.CloseReason?
    /// Echoes received.
    var echoes = 0
    private var talking = true
    let name: String

    init(_ name: String, port: UInt16, tls: TLSConfiguration) {
        self.name = name
        TCPConnection.connect(host: "localhost", port: port, tls: tls) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                connection.lines += { [weak self] line in
                    guard let self else { return }
                    if line == "\(self.name) \(self.echoes)" { self.echoes += 1 }
                    if self.talking { connection.writeLine("\(self.name) \(self.echoes)") }
                }
                connection.didClose += { [weak self] in self?.closed = $0 }
                connection.start()
                connection.writeLine("\(name) 0")
            case .failure(let error):
                failure = error
            }
        }
    }

    func stop() { talking = false }
    var subject: String? { connection?.tlsSession?.peerCertificateSubject }
}

/// Operating a TLS daemon (issue #31): its certificate reloaded on the
/// app's configuration reload (`SIGHUP`) or in code without dropping a
/// connection, a failed reload that keeps the certificate and says why,
/// the certificate's expiry in `compose inspect` and the metrics, and the
/// cap on handshakes in flight. Real sockets on 127.0.0.1; certificates
/// from a test authority made at test time.
@MainActor
@Suite(.serialized, .liveLoop) struct TLSOperationTests {
    private func server(_ certificates: TLSCertificates, configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> (ComponentTree, OperatedTLSServer, OperationLog) {
        var configuration = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key)
        configure(&configuration)
        let log = OperationLog()
        let context = try #require(AppContext.current)
        let tree = ComponentTree(OperatedTLSServer(listener: TCPServer(host: "127.0.0.1", port: 0, tls: configuration), log: log), context: context)
        tree.activate()
        let server = try #require(tree.root.value(as: OperatedTLSServer.self))
        try #require(server.listener.isListening, "\(log.listenErrors)")
        return (tree, server, log)
    }

    /// The diagnostics `context` reports from now on.
    private func diagnostics(of context: AppContext) -> DiagnosticLog {
        let log = DiagnosticLog()
        log.subscription = context.diagnostics.observe { [weak log] in log?.all.append($0) }
        return log
    }

    @MainActor
    final class DiagnosticLog {
        var all: [Diagnostic] = []
        var subscription: Subscription?
        var reloads: [Diagnostic] { all.filter { $0.code == .tlsReloadFailed } }
        deinit {}
    }

    // MARK: Reload

    @Test func aReloadUnderLoadLosesNoConnectionAndNewClientsGetTheNewCertificate() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let diagnostics = diagnostics(of: context)
        defer { diagnostics.subscription?.cancel() }
        let trust = TLSConfiguration.client(trustRoots: .file(certificates.authority))
        let port = server.listener.port
        // 20 clients talking without pause, while the certificate changes.
        let before = (0..<20).map { TalkingClient("before\($0)", port: port, tls: trust) }
        #expect(LoopDriver.run(until: { before.allSatisfy { $0.echoes >= 20 || $0.failure != nil } }))
        #expect(before.allSatisfy { $0.subject == "/CN=localhost" })
        // One in the middle of its handshake as the context changes.
        let python = try FixtureProcess(executable: "/usr/bin/python3", arguments: ["-c", Self.handshakeAfterAGo, "\(port)", certificates.authority])
        defer { python.signal(SIGTERM) }
        #expect(LoopDriver.run(until: { python.output.lines.contains("connected") && log.accepted.count == 21 }), "\(python.transcript)")
        try certificates.reissue(commonName: "localhost (renewed)")
        // What SIGHUP does.
        #expect(context.configuration.reload())
        #expect(diagnostics.reloads.isEmpty, "\(diagnostics.all)")
        #expect(server.listener.tlsCertificate?.subject == "/CN=localhost (renewed)")
        let marks = before.map(\.echoes)
        try python.writeStdin("go\n")
        let after = (0..<20).map { TalkingClient("after\($0)", port: port, tls: trust) }
        #expect(LoopDriver.run(until: {
            after.allSatisfy { $0.echoes >= 20 || $0.failure != nil } && zip(before, marks).allSatisfy { $0.echoes >= $1 + 20 }
        }))
        #expect(LoopDriver.run(until: { python.output.lines.contains("done") || !python.isRunning }), "\(python.transcript)")
        // The handshake under way kept the context it began with.
        #expect(python.output.lines.contains("/CN=localhost echo"), "\(python.transcript)")
        #expect(after.allSatisfy { $0.failure == nil && $0.subject == "/CN=localhost (renewed)" }, "\(after.map { "\($0.failure.map { "\($0)" } ?? $0.subject ?? "-")" })")
        #expect(before.allSatisfy { $0.closed == nil && $0.connection?.isOpen == true && $0.subject == "/CN=localhost" })
        // `openssl s_client` sees the new certificate too.
        let probe = try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_client", "-connect", "127.0.0.1:\(port)", "-CAfile", certificates.authority, "-verify_return_error", "-brief",
        ])
        try probe.closeStdin()
        #expect(LoopDriver.run(until: { !probe.isRunning }), "\(probe.transcript)")
        #expect(probe.errors.lines.contains { $0.contains("CN = localhost (renewed)") }, "\(probe.transcript)")
        for client in before + after { client.stop() }
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    /// Connects, waits for a line on its standard input, then runs its
    /// handshake and one echo, printing the server's subject.
    private static let handshakeAfterAGo = """
    import socket, ssl, sys
    port, cafile = int(sys.argv[1]), sys.argv[2]
    raw = socket.create_connection(("127.0.0.1", port))
    context = ssl.create_default_context(cafile=cafile)
    tls = context.wrap_socket(raw, server_hostname="localhost", do_handshake_on_connect=False)
    print("connected", flush=True)
    sys.stdin.readline()
    tls.do_handshake()
    tls.sendall(b"echo\\n")
    received = b""
    while not received.endswith(b"\\n"):
        received += tls.recv(4096)
    subject = dict(pair[0] for pair in tls.getpeercert()["subject"])["commonName"]
    print("/CN=" + subject, received.decode().strip(), flush=True)
    print("done", flush=True)
    """

    @Test func aFailedReloadKeepsTheCertificateAndNamesTheFileAndTheReason() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let diagnostics = diagnostics(of: context)
        defer { diagnostics.subscription?.cancel() }
        let trust = TLSConfiguration.client(trustRoots: .file(certificates.authority))
        let talking = TalkingClient("talking", port: server.listener.port, tls: trust)
        #expect(LoopDriver.run(until: { talking.echoes >= 5 || talking.failure != nil }))
        let manager = FileManager.default
        let keyText = try String(contentsOfFile: certificates.key, encoding: .utf8)
        let original = try Data(contentsOf: URL(fileURLWithPath: certificates.key))
        let garbage = try Data(contentsOf: URL(fileURLWithPath: try certificates.garbageFile()))
        let unrelated = try Data(contentsOf: URL(fileURLWithPath: try certificates.unrelatedKey()))
        let moved = certificates.certificate + ".moved"
        // Each way a reload fails: the file, and OpenSSL's reason.
        let failures: [(String, () throws -> Void, () throws -> Void, String, String)] = [
            ("missing certificate", { try manager.moveItem(atPath: certificates.certificate, toPath: moved) },
             { try manager.moveItem(atPath: moved, toPath: certificates.certificate) }, certificates.certificate, "No such file"),
            ("not PEM", { try garbage.write(to: URL(fileURLWithPath: certificates.key)) },
             { try original.write(to: URL(fileURLWithPath: certificates.key)) }, certificates.key, "PEM lib"),
            ("another key", { try unrelated.write(to: URL(fileURLWithPath: certificates.key)) },
             { try original.write(to: URL(fileURLWithPath: certificates.key)) }, certificates.key, "key values mismatch"),
        ]
        for (index, (name, breakFiles, repair, file, reason)) in failures.enumerated() {
            try breakFiles()
            // In code, then as SIGHUP does.
            #expect(!server.listener.reloadTLS(), "\(name)")
            #expect(context.configuration.reload(), "\(name)")
            #expect(diagnostics.reloads.count == 2 * (index + 1), "\(name): \(diagnostics.all)")
            for diagnostic in diagnostics.reloads.suffix(2) {
                #expect(diagnostic.message.contains(file), "\(name): \(diagnostic.message)")
                #expect(diagnostic.message.contains(reason), "\(name): \(diagnostic.message)")
                #expect(diagnostic.message.contains("It keeps /CN=localhost"), "\(name): \(diagnostic.message)")
                // Nothing of a key: no line of the key's file.
                let keyLines = keyText.split(separator: "\n").filter { !$0.hasPrefix("-----") }
                #expect(keyLines.allSatisfy { !diagnostic.message.contains($0) }, "\(name)")
                #expect(!diagnostic.message.contains("PRIVATE KEY-----"), "\(name)")
            }
            // The old certificate is still given, and the talk goes on.
            #expect(server.listener.tlsCertificate?.subject == "/CN=localhost", "\(name)")
            let newcomer = TalkingClient("new\(index)", port: server.listener.port, tls: trust)
            let mark = talking.echoes
            #expect(LoopDriver.run(until: { (newcomer.echoes >= 3 || newcomer.failure != nil) && talking.echoes >= mark + 3 }), "\(name)")
            #expect(newcomer.failure == nil && newcomer.subject == "/CN=localhost", "\(name): \(String(describing: newcomer.failure))")
            newcomer.stop()
            try repair()
        }
        // Repaired, a reload takes the files again.
        #expect(server.listener.reloadTLS())
        #expect(diagnostics.reloads.count == 6)
        #expect(talking.closed == nil)
        talking.stop()
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func reloadingWhatCannotBeReloadedIsADiagnosticNotACrash() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let diagnostics = diagnostics(of: context)
        defer { diagnostics.subscription?.cancel() }
        let plain = TCPServer(port: 0, startsWithComponent: false)
        #expect(!plain.reloadTLS())
        #expect(plain.tlsCertificate == nil)
        let idle = TCPServer(port: 0, tls: .server(certificateChain: certificates.certificate, privateKey: certificates.key))
        #expect(!idle.reloadTLS())
        #expect(idle.tlsCertificate == nil)
        #expect(diagnostics.reloads.count == 2, "\(diagnostics.all)")
        #expect(diagnostics.reloads.first?.message.contains("without TLS") == true, "\(diagnostics.all)")
        #expect(diagnostics.reloads.last?.message.contains("does not listen") == true, "\(diagnostics.all)")
        // A stopped server no longer follows the configuration's reloads.
        try idle.listen()
        idle.close()
        #expect(context.configuration.reload())
        #expect(diagnostics.reloads.count == 2, "\(diagnostics.all)")
    }

    /// The app's own SIGHUP, in a real process (the fixture's `tls`
    /// scenario, which `make check-leaks` also runs under valgrind): new
    /// clients get the new certificate, a reload that fails is a
    /// diagnostic and the certificate stays.
    @Test func sighupReloadsTheCertificateOfARunningApp() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let app = try FixtureProcess("tls", environment: ["COMPOSE_TLS_DIR": certificates.directory.path])
        defer { if app.isRunning { app.signal(SIGKILL) } }
        #expect(LoopDriver.run(until: { app.output.lines.contains("tls ready") || !app.isRunning }, timeout: .seconds(30)), "\(app.transcript)")
        try certificates.reissue(commonName: "localhost (renewed)")
        app.signal(SIGHUP)
        #expect(LoopDriver.run(until: { app.output.lines.contains("subject: /CN=localhost (renewed)") || !app.isRunning }), "\(app.transcript)")
        try "not a key\n".write(toFile: certificates.key, atomically: true, encoding: .utf8)
        app.signal(SIGHUP)
        #expect(LoopDriver.run(until: { app.output.lines.filter { $0 == "subject: /CN=localhost (renewed)" }.count == 2 || !app.isRunning }), "\(app.transcript)")
        #expect(app.output.lines.contains("reload failed"), "\(app.transcript)")
        #expect(app.errors.lines.contains { $0.contains("[tlsReloadFailed]") && $0.contains(certificates.key) }, "\(app.transcript)")
        app.signal(SIGTERM)
        #expect(LoopDriver.run(until: { !app.isRunning }), "\(app.transcript)")
        #expect(app.output.lines.suffix(2) == ["shutting down", "disappear app"], "\(app.transcript)")
    }

    // MARK: Expiry

    @Test func inspectionShowsTheListenersCertificateAndWhenItExpires() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, _) = try server(certificates) { $0.maximumHandshakesInFlight = 32 }
        defer { tree.destroy(); LoopDriver.settle() }
        var replies: [InspectionChannel.Reply] = []
        let channel = InspectionChannel(context: context) { replies.append($0) }
        channel.send("loop --json")
        let reply = try #require(replies.last)
        let listeners = try InspectionJSON.parse(reply.json)["loop"]?["listeners"]
        let listener = try #require(Self.first(listeners), "\(reply.json)")
        #expect(listener["address"]?.stringValue == "127.0.0.1:\(server.listener.port)")
        #expect(listener["path"]?.stringValue?.hasSuffix(".listener") == true, "\(reply.json)")
        #expect(listener["listening"]?.boolValue == true)
        let tls = try #require(listener["tls"], "\(reply.json)")
        #expect(tls["handshakesInFlight"]?.intValue == 0, "\(reply.json)")
        #expect(tls["maximumHandshakesInFlight"]?.intValue == 32, "\(reply.json)")
        let certificate = try #require(Self.first(tls["certificates"]), "\(reply.json)")
        #expect(certificate["subject"]?.stringValue == "/CN=localhost")
        #expect(certificate["file"]?.stringValue == certificates.certificate)
        // The test authority signs for 2 days.
        guard case .double(let left)? = certificate["expiresIn"] else {
            Issue.record("no expiresIn in \(reply.json)")
            return
        }
        #expect(abs(left - 2 * 86_400) < 600, "\(left)")
        let notAfter = try #require(certificate["notAfter"]?.stringValue)
        #expect(notAfter.hasSuffix("Z") && notAfter.count == 24, "\(notAfter)")
        channel.send("loop")
        let text = try #require(replies.last?.readable)
        #expect(text.contains("listeners: 1"), "\(text)")
        #expect(text.contains("TLS, handshakes 0/32"), "\(text)")
        #expect(text.contains("/CN=localhost  expires \(notAfter) (in 47h") || text.contains("/CN=localhost  expires \(notAfter) (in 2d"), "\(text)")
        // After a reload: the new one.
        try certificates.reissue(commonName: "localhost (renewed)")
        #expect(server.listener.reloadTLS())
        channel.send("loop")
        #expect(replies.last?.readable.contains("/CN=localhost (renewed)  expires") == true, "\(replies.last?.readable ?? "")")
        // A plain listener is listed, without TLS.
        server.listener.close()
        channel.send("loop --json")
        let stopped = Self.first(try InspectionJSON.parse(try #require(replies.last).json)["loop"]?["listeners"])
        #expect(stopped?["listening"]?.boolValue == false)
        #expect(stopped?["tls"]?["certificates"] == InspectionJSON.array([]))
    }

    @Test func theCertificatesExpiryIsAGaugeOfSecondsLeft() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        // A listener that starts before the app has a metrics backend is
        // reported once it has one.
        let (tree, server, _) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let metrics = TestMetrics()
        context.metricsFactory = metrics
        defer { context.metricsFactory = nil }
        let dimensions = [("app", context.name), ("listener", "127.0.0.1:\(server.listener.port)"), ("certificate", certificates.certificate)]
        let gauge = try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions)
        let left = try #require(gauge.lastValue)
        #expect(abs(left - 2 * 86_400) < 600, "\(left)")
        // A certificate of 30 days, reloaded: the same series, its new value.
        try certificates.reissue(commonName: "localhost (renewed)", days: 30)
        #expect(server.listener.reloadTLS())
        let renewed = try #require(try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions).lastValue)
        #expect(abs(renewed - 30 * 86_400) < 600, "\(renewed)")
        // Counted down by the samples, not only at reloads.
        context.updateMetrics()
        #expect(try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions).values.count >= 2)
        // A listener that stops takes its series with it.
        server.listener.close()
        #expect(throws: (any Error).self) { try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions) }
    }

    /// The first element of a JSON array.
    private static func first(_ json: InspectionJSON?) -> InspectionJSON? {
        guard case .array(let elements)? = json else { return nil }
        return elements.first
    }

    // MARK: Handshakes in flight

    @Test func pastTheCapConnectionsWaitUnacceptedUntilAHandshakeEnds() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log) = try server(certificates) {
            $0.maximumHandshakesInFlight = 4
            $0.handshakeTimeout = .seconds(2)
        }
        defer { tree.destroy(); LoopDriver.settle() }
        let port = server.listener.port
        let stalled = (0..<4).map { _ in ClientProbe(port: port) }
        #expect(LoopDriver.run(until: { log.accepted.count == 4 && stalled.allSatisfy { $0.connection != nil } }))
        #expect(server.listener.handshakesInFlight == 4)
        // The kernel completes its TCP handshake (the backlog), but the
        // server does not accept it while 4 handshakes are in flight.
        let waiting = TalkingClient("waiting", port: port, tls: .client(trustRoots: .file(certificates.authority)))
        let start = ContinuousClock.now
        // Real time: what is checked is that nothing happens meanwhile.
        #expect(!LoopDriver.run(until: { waiting.connection != nil || waiting.failure != nil }, timeout: .milliseconds(500)))
        #expect(log.accepted.count == 4)
        // One stalled client leaves: its place goes to the waiting one,
        // whose handshake completes at once.
        stalled[0].connection?.close()
        #expect(LoopDriver.run(until: { waiting.echoes >= 3 || waiting.failure != nil }))
        #expect(waiting.failure == nil, "\(String(describing: waiting.failure))")
        #expect(ContinuousClock.now - start < .seconds(2), "not accepted before the stalled clients' timeout")
        #expect(log.accepted.count == 5)
        // The other stalled ones are still closed at the handshake timeout.
        #expect(LoopDriver.run(until: { stalled.dropFirst().allSatisfy { $0.closed != nil } }))
        #expect(log.errors.map(\.kind) == [.tlsHandshakeFailed, .timedOut, .timedOut, .timedOut], "\(log.errors)")
        #expect(LoopDriver.run(until: { server.listener.handshakesInFlight == 0 }))
        waiting.stop()
        #expect(waiting.closed == nil)
    }

    @Test func twoHundredStalledHandshakesDoNotDelayARealOne() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        // The default cap (256) holds them all; they time out after 3 s.
        let (tree, server, log) = try server(certificates) { $0.handshakeTimeout = .seconds(3) }
        defer { tree.destroy(); LoopDriver.settle() }
        #expect(server.listener.tlsConfiguration?.maximumHandshakesInFlight == 256)
        let port = server.listener.port
        let stalled = (0..<200).map { _ in ClientProbe(port: port) }
        #expect(LoopDriver.run(until: { log.accepted.count == 200 && stalled.allSatisfy { $0.connection != nil } }))
        #expect(server.listener.handshakesInFlight == 200)
        // Real handshakes, one after another, while the 200 wait.
        var durations: [Duration] = []
        for index in 0..<20 {
            let start = ContinuousClock.now
            let client = TalkingClient("real\(index)", port: port, tls: .client(trustRoots: .file(certificates.authority)))
            #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
            durations.append(ContinuousClock.now - start)
            #expect(client.failure == nil)
            client.stop()
            client.connection?.close()
        }
        #expect(stalled.allSatisfy { $0.closed == nil }, "the stalled ones still wait")
        let sorted = durations.sorted()
        // A debug build on a shared machine: generous; the figure is
        // printed for the record.
        #expect(sorted[sorted.count - 1] < .milliseconds(500), "\(sorted)")
        print("TLS handshake beside 200 stalled ones: median \(sorted[sorted.count / 2]), max \(sorted[sorted.count - 1])")
        #expect(LoopDriver.run(until: { stalled.allSatisfy { $0.closed != nil } }))
        #expect(log.errors.filter { $0.kind == .timedOut }.count == 200)
        #expect(LoopDriver.run(until: { server.listener.handshakesInFlight == 0 }))
    }
}

extension TLSCertificates {
    /// Replaces the server's key and certificate with new ones from the
    /// same authority, valid for `days` days, whose subject is
    /// `/CN=commonName`.
    func reissue(commonName: String, days: Int) throws {
        let folder = directory.path
        for arguments in [
            ["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
             "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr", "-subj", "/CN=\(commonName)"],
            ["x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
             "-CAcreateserial", "-out", "\(folder)/server.pem", "-days", "\(days)", "-extfile", "\(folder)/server.ext"],
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.openssl)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed") }
        }
    }
}
