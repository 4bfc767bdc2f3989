import Foundation
import Testing

/// The chat daemon served over TLS (`--tls-cert`, `--tls-key`, or
/// CHAT_TLS_CERT and CHAT_TLS_KEY): the `ComposeChat` executable as a real
/// process with a certificate of a test authority made at test time
/// (``TLSCertificates``), and `openssl s_client` as the client.
@Suite struct ChatTLSDaemonTests {
    /// `openssl s_client` on the chat's port, verifying the chain against
    /// the test authority and the name `localhost`; its standard input is
    /// what it sends, its standard output what it received.
    static func client(port: UInt16, certificates: TLSCertificates) throws -> FixtureProcess {
        try FixtureProcess(executable: TLSCertificates.openssl, arguments: [
            "s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-CAfile", certificates.authority,
            "-verify_return_error", "-verify_hostname", "localhost", "-quiet", "-no_ign_eof",
        ], name: "s_client")
    }

    @Test func withACertificateAndKeyTheChatServesTLSToOpenSSLsClientAndSaysGoodbyeOverIt() async throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let chat = try await ChatDaemon.start(environment: ["CHAT_TLS_CERT": certificates.certificate, "CHAT_TLS_KEY": certificates.key])
        #expect(chat.process.output.lines.contains("serving TLS with the certificate chain \(certificates.certificate)"), "\(chat.process.transcript)")

        let ada = try Self.client(port: chat.port, certificates: certificates)
        try await ada.waitFor(ChatDaemonTests.namePrompt)
        try ada.writeStdin("ada\n")
        try await ada.waitFor(ChatDaemonTests.hello("ada"))
        try ada.writeStdin("/join lab\n")
        try await ada.waitFor(ChatDaemonTests.inRoom("lab"))

        // A plaintext client gets no chat: its first line is not a TLS
        // record (more than a record header's 5 bytes, so OpenSSL can
        // tell at once), its connection is closed, and the daemon goes on.
        let plain = try chat.connect()
        plain.send("bob in plaintext")
        #expect(await plain.waitForClose())
        #expect(!plain.input.text.contains(ChatDaemonTests.namePrompt), "\(plain.input.text)")

        let bob = try Self.client(port: chat.port, certificates: certificates)
        try await bob.waitFor(ChatDaemonTests.namePrompt)
        try bob.writeStdin("bob\n/join lab\nhello, ada\n")
        try await ada.waitFor("<bob> hello, ada")

        // The goodbye is written over TLS before the session ends.
        chat.process.signal(SIGTERM)
        for client in [ada, bob] {
            try await client.waitFor(ChatDaemonTests.goodbye)
            #expect(await client.waitForExit() == 0, "\(client.transcript)")
        }
        #expect(await chat.process.waitForExit() == 0, "\(chat.process.transcript)")
    }

    @Test func flagsWorkAsTheVariablesDo() async throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let process = try FixtureProcess(executable: "ComposeChat", arguments: [
            "--port", "0", "--tls-cert", certificates.certificate, "--tls-key", certificates.key,
        ])
        let line = try await process.waitForLine(startingWith: "listening on 127.0.0.1:")
        let port = try #require(line.split(separator: ":").last.flatMap { UInt16($0) }, "\(line)")
        let client = try Self.client(port: port, certificates: certificates)
        try await client.waitFor(ChatDaemonTests.namePrompt)
        try client.closeStdin()
        #expect(await client.waitForExit() == 0, "\(client.transcript)")
        process.signal(SIGTERM)
        #expect(await process.waitForExit() == 0, "\(process.transcript)")
    }

    @Test func aCertificateWithoutItsKeyMakesTheDaemonExit1SayingWhyRatherThanServePlaintext() async throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let chat = try FixtureProcess(executable: "ComposeChat", environment: ["CHAT_PORT": "0", "CHAT_TLS_CERT": certificates.certificate])
        #expect(await chat.waitForExit() == 1, "\(chat.transcript)")
        #expect(chat.output.lines.contains("cannot listen: --tls-cert needs --tls-key (CHAT_TLS_KEY) too"), "\(chat.transcript)")
        #expect(!chat.output.lines.contains { $0.hasPrefix("listening on") }, "\(chat.transcript)")
    }

    @Test func aKeyThatIsNotTheCertificatesMakesTheDaemonExit1NamingTheFile() async throws {
        let certificates = try TLSCertificates()
        defer { certificates.remove() }
        let key = try certificates.unrelatedKey()
        let chat = try FixtureProcess(executable: "ComposeChat", environment: [
            "CHAT_PORT": "0", "CHAT_TLS_CERT": certificates.certificate, "CHAT_TLS_KEY": key,
        ])
        #expect(await chat.waitForExit() == 1, "\(chat.transcript)")
        let complaint = chat.output.lines.first { $0.hasPrefix("cannot listen: ") }
        #expect(complaint?.contains(key) == true, "\(chat.transcript)")
        #expect(!chat.output.lines.contains { $0.hasPrefix("listening on") }, "\(chat.transcript)")
    }
}
