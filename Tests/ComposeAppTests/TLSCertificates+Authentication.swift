import Foundation
import Testing

/// More certificates of the test authority, made at test time with the
/// `openssl` command: for other names (SNI), for clients (mutual TLS),
/// expired ones; a second authority nobody trusts; and the pins of keys,
/// as the openssl command computes them (not as ComposeTLS does).
extension TLSCertificates {
    /// A certificate and key pair: their paths.
    struct Issued {
        let certificate: String
        let key: String
    }

    /// A new key and a certificate for it signed by the test authority
    /// (or by ``otherAuthority()``'s), named `name` in the folder:
    /// subject `/CN=commonName`, the alternative names `alternativeNames`
    /// (`DNS:a.test,DNS:*.b.test`; none if empty), for a server, or for a
    /// client with `client`.
    func issue(_ name: String, commonName: String, alternativeNames: String = "", client: Bool = false, byOtherAuthority: Bool = false) throws -> Issued {
        let folder = directory.path
        var extensions = "basicConstraints=CA:FALSE\nextendedKeyUsage=\(client ? "clientAuth" : "serverAuth")\n"
        if !alternativeNames.isEmpty { extensions += "subjectAltName=\(alternativeNames)\n" }
        try extensions.write(toFile: "\(folder)/\(name).ext", atomically: true, encoding: .utf8)
        try Self.run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", "\(folder)/\(name).key", "-out", "\(folder)/\(name).csr", "-subj", "/CN=\(commonName)"])
        let authority = byOtherAuthority ? try otherAuthority() : (certificate: self.authority, key: "\(folder)/ca.key")
        try Self.run(["x509", "-req", "-in", "\(folder)/\(name).csr", "-CA", authority.certificate, "-CAkey", authority.key,
                      "-CAcreateserial", "-out", "\(folder)/\(name).pem", "-days", "2", "-extfile", "\(folder)/\(name).ext"])
        return Issued(certificate: "\(folder)/\(name).pem", key: "\(folder)/\(name).key")
    }

    /// A second authority (made once per folder), which no test trusts.
    func otherAuthority() throws -> (certificate: String, key: String) {
        let folder = directory.path
        let certificate = "\(folder)/other-ca.pem", key = "\(folder)/other-ca.key"
        if !FileManager.default.fileExists(atPath: certificate) {
            try Self.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=Compose Other CA"])
        }
        return (certificate, key)
    }

    /// A server certificate for `localhost` and 127.0.0.1, signed by the
    /// test authority, valid on 1-2 January 2020 only: expired. (OpenSSL
    /// 3.0's `x509 -req` cannot date a certificate in the past; `openssl
    /// ca` can, with `-startdate` and `-enddate`.)
    func expiredServer() throws -> Issued {
        let folder = directory.path
        try "".write(toFile: "\(folder)/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: "\(folder)/serial", atomically: true, encoding: .utf8)
        try """
        [ca]
        default_ca = test
        [test]
        database = \(folder)/index.txt
        new_certs_dir = \(folder)
        serial = \(folder)/serial
        default_md = sha256
        policy = any
        unique_subject = no
        [any]
        commonName = supplied
        [server]
        subjectAltName = DNS:localhost,IP:127.0.0.1
        basicConstraints = CA:FALSE
        extendedKeyUsage = serverAuth

        """.write(toFile: "\(folder)/ca.cnf", atomically: true, encoding: .utf8)
        try Self.run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", "\(folder)/expired.key", "-out", "\(folder)/expired.csr", "-subj", "/CN=localhost"])
        try Self.run(["ca", "-batch", "-config", "\(folder)/ca.cnf", "-cert", authority, "-keyfile", "\(folder)/ca.key",
                      "-in", "\(folder)/expired.csr", "-out", "\(folder)/expired.pem", "-extensions", "server", "-notext",
                      "-startdate", "20200101000000Z", "-enddate", "20200102000000Z"])
        return Issued(certificate: "\(folder)/expired.pem", key: "\(folder)/expired.key")
    }

    /// The pin of the key of the certificate at `path`: base64 of the
    /// SHA-256 of its DER SubjectPublicKeyInfo, by the openssl command.
    static func pin(of path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(openssl) x509 -in \"$1\" -pubkey -noout | \(openssl) pkey -pubin -outform der | \(openssl) dgst -sha256 -binary | base64", "pin", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let pin = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, pin.count == 44 else { throw Failure(description: "no pin for \(path): \(pin)") }
        return pin
    }
}
