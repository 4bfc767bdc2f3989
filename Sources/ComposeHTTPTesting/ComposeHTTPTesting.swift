// ComposeHTTPTesting: requests to a TestApp's HTTPServer over its
// simulated network (`app.http(.get, "/path")`), no socket, answers read
// by SwiftNIO's HTTP/1 client codec. A module of its own so that the
// tests of apps that serve no HTTP bring neither HTTP nor NIO along.
@_exported public import ComposeHTTP
@_exported public import ComposeTesting
