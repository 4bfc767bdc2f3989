// Sources/ComposeTLS/ComposeTLS.docc/ComposeTLS.md: several certificates
// (SNI) and client certificates. (Real handshakes with them are tested on
// real sockets: TLSAuthenticationTests.)
import ComposeTLS
import Testing

@Test func aServerWithACertificatePerNameListsTheFurtherOnes() {
    var tls = TLSConfiguration.server(certificateChain: "example.com.pem", privateKey: "example.com.key")
    tls.addCertificate(certificateChain: "example.org.pem", privateKey: "example.org.key")
    #expect(tls.certificateChainFile == "example.com.pem")
    #expect(tls.additionalCertificates == [.init(certificateChain: "example.org.pem", privateKey: "example.org.key")])
}

@Test func aServerThatRequiresClientCertificatesNamesTheirAuthorities() {
    var tls = TLSConfiguration.server(certificateChain: "server.pem", privateKey: "server.key")
    tls.clientAuthentication = .require(trustRoots: "clients-ca.pem")
    #expect(tls.clientAuthentication == .require(trustRoots: "clients-ca.pem"))
    #expect(tls.isServer)
}
