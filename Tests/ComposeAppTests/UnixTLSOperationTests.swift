@_spi(Testing) @testable import ComposeApp
import ComposeTLS
import Foundation
import MetricsTestKit
import Testing

/// Echoes each line over TLS on a Unix domain socket.
private struct UnixTLSServer: Component {
    let listener: UnixServer
    let sessions = InstanceComponent<UnixTLSSession>()
    let log: UnixTLSLog
    var observers: Void {
        listener += { connection in
            log.accepted.append(connection)
            sessions.add { UnixTLSSession(connection: connection) }
        }
        listener.errors += { error in log.listenErrors.append(error) }
        sessions.forward(\.connection.errors) += { _, error in log.errors.append(error) }
        sessions.forward(\.connection.didClose) += { id, _ in sessions.remove(id) }
    }
}

private struct UnixTLSSession: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line) }
    }
}

@MainActor
private final class UnixTLSLog {
    var accepted: [TCPConnection] = []
    var errors: [LoopError] = []
    var listenErrors: [LoopError] = []
    var diagnostics: [Diagnostic] = []
}

/// A client of the socket file: over TLS (`tls`), echoing one line, or
/// plain, saying nothing (a stalled handshake).
@MainActor
private final class UnixTLSClient {
    var connection: TCPConnection?
    var failure: LoopError?
    var closed: TCPConnection.CloseReason?
    var lines: [String] = []

    init(path: String, tls: TLSConfiguration?) {
        let completion: @MainActor (Result<TCPConnection, LoopError>) -> Void = { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let connection):
                self.connection = connection
                connection.lines += { [weak self] in self?.lines.append($0) }
                connection.didClose += { [weak self] in self?.closed = $0 }
                connection.start()
                if tls != nil { connection.writeLine("ping") }
            case .failure(let error):
                failure = error
            }
        }
        if let tls {
            TCPConnection.connect(unixPath: path, tls: tls, completion)
        } else {
            TCPConnection.connect(unixPath: path, completion)
        }
    }

    var subject: String? { connection?.tlsSession?.peerCertificateSubject }
}

/// Operating a TLS server on a Unix domain socket as a TLS `TCPServer` is
/// operated (TLSOperationTests): its certificate reloaded in code or on
/// the configuration reload, a failed reload that keeps it, its expiry in
/// `compose inspect` and the metrics, the cap on handshakes in flight.
@MainActor
@Suite(.serialized, .liveLoop) struct UnixTLSOperationTests {
    private func server(_ certificates: TLSCertificates, configure: (inout TLSConfiguration) -> Void = { _ in }) throws -> (ComponentTree, UnixTLSServer, UnixTLSLog, String) {
        var configuration = TLSConfiguration.server(certificateChain: certificates.certificate, privateKey: certificates.key)
        configure(&configuration)
        let log = UnixTLSLog()
        let context = try #require(AppContext.current)
        let path = certificates.directory.appendingPathComponent("control.sock").path
        let tree = ComponentTree(UnixTLSServer(listener: UnixServer(path: path, tls: configuration), log: log), context: context)
        tree.activate()
        let server = try #require(tree.root.value(as: UnixTLSServer.self))
        try #require(server.listener.isListening, "\(log.listenErrors)")
        return (tree, server, log, path)
    }

    private func trust(_ certificates: TLSCertificates) -> TLSConfiguration {
        .client(trustRoots: .file(certificates.authority), serverName: "localhost")
    }

    @Test func aReloadGivesNewClientsTheNewCertificateAndKeepsLiveOnes() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log, path) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        let before = UnixTLSClient(path: path, tls: trust(certificates))
        #expect(LoopDriver.run(until: { before.lines == ["ping"] || before.failure != nil }), "\(String(describing: before.failure))")
        #expect(before.subject == "/CN=localhost")
        #expect(server.listener.tlsCertificate?.subject == "/CN=localhost")

        // In code.
        try certificates.reissue(commonName: "localhost (renewed)")
        #expect(server.listener.reloadTLS())
        #expect(server.listener.tlsCertificate?.subject == "/CN=localhost (renewed)")
        let after = UnixTLSClient(path: path, tls: trust(certificates))
        #expect(LoopDriver.run(until: { after.lines == ["ping"] || after.failure != nil }), "\(String(describing: after.failure))")
        #expect(after.subject == "/CN=localhost (renewed)")

        // As SIGHUP does.
        try certificates.reissue(commonName: "localhost (again)")
        #expect(context.configuration.reload())
        #expect(server.listener.tlsCertificate?.subject == "/CN=localhost (again)")
        let third = UnixTLSClient(path: path, tls: trust(certificates))
        #expect(LoopDriver.run(until: { third.lines == ["ping"] || third.failure != nil }), "\(String(describing: third.failure))")
        #expect(third.subject == "/CN=localhost (again)")

        // The first connection lives on, with its certificate.
        before.connection?.writeLine("still here")
        #expect(LoopDriver.run(until: { before.lines.count == 2 }))
        #expect(before.closed == nil && before.subject == "/CN=localhost")
        #expect(log.errors.isEmpty, "\(log.errors)")
    }

    @Test func aFailedReloadKeepsTheCertificateAndSaysWhy() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, _, path) = try server(certificates)
        defer { tree.destroy(); LoopDriver.settle() }
        var reloads: [Diagnostic] = []
        let subscription = context.diagnostics.observe { if $0.code == .tlsReloadFailed { reloads.append($0) } }
        defer { subscription.cancel() }
        try "not a key\n".write(toFile: certificates.key, atomically: true, encoding: .utf8)
        #expect(!server.listener.reloadTLS())
        #expect(reloads.count == 1)
        #expect(reloads.first?.message.contains("TLS server unix:\(path) could not reload its certificate") == true, "\(reloads)")
        #expect(reloads.first?.message.contains(certificates.key) == true, "\(reloads)")
        #expect(reloads.first?.message.contains("It keeps /CN=localhost") == true, "\(reloads)")
        #expect(server.listener.tlsCertificate?.subject == "/CN=localhost")
        let client = UnixTLSClient(path: path, tls: trust(certificates))
        #expect(LoopDriver.run(until: { client.lines == ["ping"] || client.failure != nil }), "\(String(describing: client.failure))")
        #expect(client.subject == "/CN=localhost")

        // A plain Unix server has nothing to reload: a diagnostic.
        let plain = UnixServer(path: certificates.directory.appendingPathComponent("plain.sock").path, startsWithComponent: false)
        #expect(!plain.reloadTLS())
        #expect(plain.tlsCertificate == nil)
        #expect(reloads.last?.message.contains("a server without TLS") == true, "\(reloads)")
    }

    @Test func inspectionAndMetricsShowTheCertificatesExpiry() throws {
        let context = try #require(AppContext.current)
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, _, path) = try server(certificates) { $0.maximumHandshakesInFlight = 8 }
        defer { tree.destroy(); LoopDriver.settle() }
        var replies: [InspectionChannel.Reply] = []
        let channel = InspectionChannel(context: context) { replies.append($0) }
        channel.send("loop")
        let text = try #require(replies.last?.readable)
        #expect(text.contains("listeners: 1\n  unix:/"), "\(text)")
        #expect(text.contains("/CN=localhost  expires"), "\(text)")
        channel.send("loop --json")
        let json = try #require(replies.last?.json)
        guard case .array(let listeners)? = try InspectionJSON.parse(json)["loop"]?["listeners"], let listener = listeners.first else {
            Issue.record("no listener in \(json)")
            return
        }
        #expect(listener["address"]?.stringValue == "unix:\(path)")
        #expect(listener["path"]?.stringValue?.hasSuffix(".listener") == true, "\(json)")
        #expect(listener["tls"]?["maximumHandshakesInFlight"]?.intValue == 8, "\(json)")
        #expect(listener["tls"]?["handshakesInFlight"]?.intValue == 0, "\(json)")
        guard case .array(let presented)? = listener["tls"]?["certificates"], let certificate = presented.first else {
            Issue.record("no certificate in \(json)")
            return
        }
        #expect(certificate["subject"]?.stringValue == "/CN=localhost")
        #expect(certificate["file"]?.stringValue == certificates.certificate)

        let metrics = TestMetrics()
        context.metricsFactory = metrics
        defer { context.metricsFactory = nil }
        let dimensions = [("app", context.name), ("listener", "unix:\(path)"), ("certificate", certificates.certificate)]
        let left = try #require(try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions).lastValue)
        #expect(abs(left - 2 * 86_400) < 600, "\(left)")
        server.listener.close()
        #expect(throws: (any Error).self) { try metrics.expectGauge("compose_tls_certificate_expiry_seconds", dimensions) }
    }

    @Test func pastTheCapConnectionsWaitUnacceptedUntilAHandshakeEnds() throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let (tree, server, log, path) = try server(certificates) {
            $0.maximumHandshakesInFlight = 2
            $0.handshakeTimeout = .seconds(5)
        }
        defer { tree.destroy(); LoopDriver.settle() }
        let stalled = (0..<2).map { _ in UnixTLSClient(path: path, tls: nil) }
        #expect(LoopDriver.run(until: { log.accepted.count == 2 && stalled.allSatisfy { $0.connection != nil } }))
        #expect(server.listener.handshakesInFlight == 2)
        let waiting = UnixTLSClient(path: path, tls: trust(certificates))
        // Real time: what is checked is that nothing happens meanwhile.
        #expect(!LoopDriver.run(until: { waiting.connection != nil || waiting.failure != nil }, timeout: .milliseconds(300)))
        #expect(log.accepted.count == 2)
        stalled[0].connection?.close()
        #expect(LoopDriver.run(until: { waiting.lines == ["ping"] || waiting.failure != nil }))
        #expect(waiting.failure == nil, "\(String(describing: waiting.failure))")
        #expect(log.accepted.count == 3)
        #expect(server.listener.handshakesInFlight == 1)
    }
}
