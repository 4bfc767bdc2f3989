// ComposeHTTPS: ComposeHTTP's server over ComposeTLS
// (`HTTPServer(port:tls:)`). A module of its own so that an app that
// serves plain HTTP links no OpenSSL and an app that speaks TLS but no
// HTTP links no HTTP parser; importing it brings both with it.
@_exported public import ComposeHTTP
@_exported public import ComposeTLS
