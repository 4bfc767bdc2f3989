// swift-tools-version: 6.1
import PackageDescription

// Outgoing HTTP from a Compose app, shown, not rewritten (issue #32): an
// observer calls an HTTP API with AsyncHTTPClient and sends the answer into
// the component tree. A package of its own so that the project itself does
// not depend on AsyncHTTPClient: its first build takes 2.5 to 4.5 minutes,
// which `make test` and the sanitizer builds would otherwise pay every time.
// `make test-examples` builds and tests it; the ComposeHTTP article "Calling
// HTTP APIs" shows its code.
let package = Package(
    name: "OutgoingHTTP",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Compose", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // QuoteFetcher (the article's code) in a small app that also serves
        // the API it calls; the test runs the app, as the runtime runs it.
        .executableTarget(
            name: "OutgoingHTTP",
            dependencies: [
                .product(name: "ComposeHTTP", package: "Compose"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "OutgoingHTTPTests",
            // Built first, so that the test finds it next to itself.
            dependencies: ["OutgoingHTTP"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
