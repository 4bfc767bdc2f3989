import Foundation
import Testing

/// A test certificate authority and a server certificate it signed,
/// made at test time with the `openssl` command in a temporary folder
/// (no key is committed): EC P-256 keys; the server's certificate names
/// `localhost` and `127.0.0.1`. ``remove()`` deletes the folder.
struct TLSCertificates {
    let directory: URL
    /// The authority's certificate (what a client trusts).
    var authority: String { directory.appendingPathComponent("ca.pem").path }
    /// The server's certificate (its chain: the authority is not sent).
    var certificate: String { directory.appendingPathComponent("server.pem").path }
    /// The server's private key.
    var key: String { directory.appendingPathComponent("server.key").path }

    static let openssl = "/usr/bin/openssl"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("compose-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let folder = directory.path
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
            .write(toFile: "\(folder)/server.ext", atomically: true, encoding: .utf8)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Self.run(["req", "-x509"] + ec + ["-keyout", "\(folder)/ca.key", "-out", "\(folder)/ca.pem", "-days", "2", "-subj", "/CN=Compose Test CA"])
        try Self.run(["req"] + ec + ["-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr", "-subj", "/CN=localhost"])
        try Self.run(["x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
                      "-CAcreateserial", "-out", "\(folder)/server.pem", "-days", "2", "-extfile", "\(folder)/server.ext"])
    }

    /// Replaces the server's key and certificate with new ones from the
    /// same authority, whose subject is `/CN=commonName` (same names).
    func reissue(commonName: String) throws {
        let folder = directory.path
        try Self.run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", "\(folder)/server.key", "-out", "\(folder)/server.csr", "-subj", "/CN=\(commonName)"])
        try Self.run(["x509", "-req", "-in", "\(folder)/server.csr", "-CA", "\(folder)/ca.pem", "-CAkey", "\(folder)/ca.key",
                      "-CAcreateserial", "-out", "\(folder)/server.pem", "-days", "2", "-extfile", "\(folder)/server.ext"])
    }

    /// A private key of no certificate here (a server given it with the
    /// certificate is misconfigured): its path.
    func unrelatedKey() throws -> String {
        let path = directory.appendingPathComponent("unrelated.key").path
        try Self.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", path])
        return path
    }

    /// A file that is not PEM at all: its path.
    func garbageFile() throws -> String {
        let path = directory.appendingPathComponent("garbage.pem").path
        try "not a certificate, not a key\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl arguments` to its end; throws if it fails.
    static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
