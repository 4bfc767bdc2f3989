// ComposeTLS: TLS servers and clients on the byte streams of ComposeApp,
// on the platform's OpenSSL (memory BIOs under the connection). An app that
// serves or speaks TLS imports this module, which brings ComposeApp with
// it; an app that does not never links OpenSSL.
@_exported public import ComposeApp
