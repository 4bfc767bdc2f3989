// ComposeHTTP: an HTTP/1.1 server on the loop, on Debian's libhttp-parser,
// with apple/swift-http-types as the currency types. An app that serves
// HTTP imports this module, which brings ComposeApp and HTTPTypes with it;
// an app that does not links neither.
@_exported public import ComposeApp
@_exported public import HTTPTypes
