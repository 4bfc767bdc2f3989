// swift-tools-version: 6.1
import PackageDescription

/// Strict settings shared by every target (see ../shared/STYLE.md, "Layout").
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Compose",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Compose", targets: ["Compose"]),
        .library(name: "ComposeApp", targets: ["ComposeApp"]),
        .library(name: "ComposePersistence", targets: ["ComposePersistence"]),
        .library(name: "ComposeConfiguration", targets: ["ComposeConfiguration"]),
        .library(name: "ComposeFraming", targets: ["ComposeFraming"]),
        .library(name: "ComposeTLS", targets: ["ComposeTLS"]),
        .library(name: "ComposeHTTP", targets: ["ComposeHTTP"]),
        .library(name: "ComposeTesting", targets: ["ComposeTesting"]),
        .library(name: "ComposeHTTPS", targets: ["ComposeHTTPS"]),
        .library(name: "ComposeHTTPTesting", targets: ["ComposeHTTPTesting"]),
        .library(name: "ComposeTerminal", targets: ["ComposeTerminal"]),
        .library(name: "ComposeTerminalTesting", targets: ["ComposeTerminalTesting"]),
        .executable(name: "compose", targets: ["ComposeTool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // The virtual clock's queue of due actions (HeapModule).
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // swift-configuration's ConfigReader over an app's configuration
        // (ComposeConfiguration, opt-in: its core needs FoundationEssentials).
        // No trait: JSON pulls in all of Foundation (JSONSerialization), and
        // ComposeApp reads the command line itself.
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: []),
        // Tests only: the property-based tests of the line splitter and stores.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Metrics (ComposeApp): CoreMetrics only, a no-op until an app
        // gives a backend; the chat example exports Prometheus text.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `make docs`: the DocC catalogs (Sources/*/*.docc) with warnings as errors.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // ComposeFraming: SwiftNIO's ByteBuffer (NIOCore), the buffer type
        // of protocol code (docs/protocols.md says why it is not linked
        // into ComposeApp).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // ComposeHTTP: the currency types of HTTP on Swift servers
        // (HTTPRequest, HTTPResponse, HTTPFields; Hummingbird's too).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "Compose",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        .target(
            name: "ComposeApp",
            dependencies: [
                "Compose", "CLibUV",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // JSON persistence of stores: a module of its own because JSON
        // coding needs FoundationEssentials, which apps that persist
        // nothing should not load (~2 MiB of resident memory).
        .target(
            name: "ComposePersistence",
            dependencies: ["ComposeApp", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Configuration files (JSON) and swift-configuration's ConfigReader
        // over an app's configuration: a module of its own because both
        // need FoundationEssentials, which apps that read only flags and
        // variables should not load.
        .target(
            name: "ComposeConfiguration",
            dependencies: ["ComposeApp", .product(name: "Configuration", package: "swift-configuration")],
            swiftSettings: strictSettings
        ),
        // Frames on byte streams: decoders and encoders over SwiftNIO's
        // ByteBuffer, for connections, child processes and standard input.
        // A module of its own so that apps which speak only lines do not
        // link NIOCore (+244 KiB of resident memory for the echo daemon).
        .target(
            name: "ComposeFraming",
            dependencies: ["ComposeApp", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: strictSettings
        ),
        // The platform's OpenSSL (Debian's libssl-dev, 3.0), for ComposeTLS only.
        .systemLibrary(
            name: "CLibSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // TLS under the stream types (servers and clients) on OpenSSL's
        // memory BIOs. A module of its own so that apps which serve no TLS
        // do not link OpenSSL (docs/protocols.md, "TLS").
        .target(
            name: "ComposeTLS",
            dependencies: ["ComposeApp", "CLibSSL", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        // Debian's libhttp-parser (libhttp-parser-dev, 2.9.4; no pkg-config
        // file), for ComposeHTTP only.
        .systemLibrary(
            name: "CHTTPParser",
            providers: [.apt(["libhttp-parser-dev"])]
        ),
        // An HTTP/1.1 server on the loop: routes declared by components,
        // requests as emitters. A module of its own so that apps which
        // serve no HTTP link neither the parser nor HTTPTypes
        // (docs/protocols.md, "HTTP").
        .target(
            name: "ComposeHTTP",
            dependencies: [
                "ComposeApp", "CHTTPParser",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // HTTPS: `HTTPServer(..., tls:)`, ComposeHTTP over ComposeTLS. A
        // module of its own so that neither plain-HTTP apps link OpenSSL
        // nor TLS-only apps the HTTP parser (docs/protocols.md, "HTTPS").
        .target(
            name: "ComposeHTTPS",
            dependencies: ["ComposeHTTP", "ComposeTLS", "ComposeApp"],
            swiftSettings: strictSettings
        ),
        // `TestApp.http(_:_:)`: requests to the app's HTTPServer over the
        // simulated network, answers read by SwiftNIO's HTTP/1 client
        // codec (llhttp), a parser other than the server's. A module of
        // its own so that ComposeTesting does not bring HTTP (and NIO) to
        // the tests of apps that serve none.
        .target(
            name: "ComposeHTTPTesting",
            dependencies: [
                "ComposeTesting", "ComposeHTTP", "ComposeApp",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // Terminal views for `@main` apps: views as values, a cell grid
        // diffed frame to frame, keys and resize as emitters. Its own
        // module, so apps that show nothing pay nothing for it.
        .target(
            name: "ComposeTerminal",
            dependencies: [
                "ComposeApp",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ComposeTesting",
            dependencies: [
                "Compose", "ComposeApp", "ComposePersistence",
                .product(name: "HeapModule", package: "swift-collections"),
                // Test apps log into memory (`TestApp.logs`), not to stderr.
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // `app.screen`, `app.press(.down)`: a TestApp's simulated
        // terminal as a test sees it. A module of its own so that the
        // tests of apps that show nothing do not bring ComposeTerminal.
        .target(
            name: "ComposeTerminalTesting",
            dependencies: ["ComposeTerminal", "ComposeTesting", "ComposeApp"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTerminalTestingTests",
            dependencies: [
                "ComposeTerminalTesting", "ComposeTerminal", "ComposeTesting", "ComposeApp",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTerminalTests",
            dependencies: [
                "ComposeTerminal", "ComposeTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTests",
            dependencies: ["Compose", "ComposeTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTestingTests",
            dependencies: [
                "ComposeTesting", "ComposePersistence",
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ComposeExample",
            dependencies: ["ComposeApp"],
            path: "Examples/Hello",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ComposeChat",
            dependencies: ["ComposeApp", "ComposeConfiguration", "ComposeTLS", "ComposeHTTP", .product(name: "Prometheus", package: "swift-prometheus")],
            path: "Examples/Chat",
            swiftSettings: strictSettings
        ),
        // The relay daemon: commands whose output is relayed to clients
        // with back-pressure (scripts/soak.py measures it).
        .executableTarget(
            name: "ComposeRelay",
            dependencies: ["ComposeApp"],
            path: "Examples/Relay",
            swiftSettings: strictSettings
        ),
        // Bow Arch's stepper as a component: a state, an input of actions,
        // a pure dispatch function; a terminal app (keys, a help line), or
        // plain lines in a pipe.
        .executableTarget(
            name: "ComposeStepper",
            dependencies: ["ComposeApp", "ComposeTerminal"],
            path: "Examples/Stepper",
            swiftSettings: strictSettings
        ),
        // A terminal app: a text field, a list with a selection, focus
        // moved with Tab, notes persisted across runs (`make run-notes`).
        .executableTarget(
            name: "ComposeNotes",
            dependencies: ["ComposeApp", "ComposeTerminal", "ComposePersistence"],
            path: "Examples/Notes",
            swiftSettings: strictSettings
        ),
        // A RESP2 (redis protocol) key-value server on the framing API:
        // redis-cli and redis-benchmark talk to it (`make bench-redis`).
        .executableTarget(
            name: "ComposeKeyValue",
            dependencies: ["ComposeFraming"],
            path: "Examples/KeyValue",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ReadmeStartup",
            dependencies: ["ComposeApp"],
            path: "Examples/ReadmeStartup",
            swiftSettings: strictSettings
        ),
        // The `compose` tool and the templates it renders (Templates/,
        // shipped as resources so an installed binary finds them).
        .target(
            name: "ComposeTemplates",
            path: "Templates",
            resources: [.copy("shared"), .copy("app"), .copy("daemon"), .copy("component"), .copy("terminal")],
            swiftSettings: strictSettings
        ),
        // The target is ComposeTool (Sources/ComposeTool): a folder named
        // `compose` next to `Compose` is the same folder on a case-insensitive
        // file system. The product, and so the binary, stays `compose`.
        .executableTarget(
            name: "ComposeTool",
            dependencies: [
                "ComposeTemplates",
                // `compose top`: a terminal app run by the views' runtime.
                "ComposeTerminal",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            swiftSettings: strictSettings
        ),
        // The apps ComposeAppTests start as real processes (the fixture,
        // and the chat daemon above).
        .executableTarget(
            name: "ComposeFixture",
            // ComposeTLS: the `tls` scenario of `make check-leaks`.
            dependencies: ["ComposeApp", "ComposeTLS"],
            path: "Tests/Fixtures/AppFixture",
            swiftSettings: strictSettings
        ),
        // Persisted state under SIGKILL, a full and a read-only file system.
        .executableTarget(
            name: "PersistFixture",
            dependencies: ["ComposeApp", "ComposePersistence"],
            path: "Tests/Fixtures/PersistFixture",
            swiftSettings: strictSettings
        ),
        // The terminal app the end-to-end terminal tests run in tmux.
        .executableTarget(
            name: "TerminalFixture",
            dependencies: ["ComposeTerminal", "ComposeApp"],
            path: "Tests/Fixtures/TerminalFixture",
            swiftSettings: strictSettings
        ),
        // A terminal app of views the end-to-end tests run in tmux.
        .executableTarget(
            name: "ViewsFixture",
            dependencies: ["ComposeTerminal"],
            path: "Tests/Fixtures/ViewsFixture",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeAppTests",
            dependencies: [
                "ComposeApp", "ComposeTesting", "ComposeFixture", "ComposeChat", "ComposeRelay", "ComposeStepper", "ComposeNotes",
                // The terminal examples on TestApp's virtual screen.
                "ComposeTerminal", "ComposeTerminalTesting",
                "ComposeKeyValue",
                // The terminal app run in tmux (TerminalEndToEndTests).
                "TerminalFixture",
                // The views' runtime in tmux (ViewsEndToEndTests).
                "ViewsFixture",
                "ComposePersistence", "ComposeConfiguration", "PersistFixture",
                // Frames over real sockets (FramingSocketTests).
                "ComposeFraming",
                // TLS over real sockets, against openssl and Python (TLSTests).
                "ComposeTLS",
                // HTTP over real sockets, against curl, Python and raw sockets (HTTP*Tests).
                "ComposeHTTP",
                // HTTPS over real sockets, against curl and Python (HTTPSTests).
                "ComposeHTTPS",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // `compose inspect` against the chat daemon (InspectEndToEndTests).
                "ComposeTool",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            path: "Tests/ComposeAppTests",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeFramingTests",
            dependencies: [
                "ComposeFraming", "ComposeTesting",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings
        ),
        // HTTP apps in TestApp: `app.http(...)` over the simulated network.
        .testTarget(
            name: "ComposeHTTPTestingTests",
            dependencies: [
                "ComposeHTTPTesting", "ComposeHTTP", "ComposeTesting", "ComposeApp",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeToolTests",
            dependencies: [
                "ComposeTool", "ComposeTemplates",
                // The numbers of `compose new --container`'s files against
                // the runtime's (StartupConfiguration) and serveHealth()'s
                // paths on a TestApp (ContainerScaffoldTests).
                "ComposeApp", "ComposeHTTP", "ComposeTesting",
                // `compose top`'s views and app (TopViewTests, TopAppTests).
                "ComposeTerminal",
            ],
            // Golden files (expected help and rendered templates), read
            // from the checkout; UPDATE_GOLDEN=1 rewrites them.
            exclude: ["Golden"],
            swiftSettings: strictSettings
        ),
        // The README's samples, compiled against the public API only
        // (plain `import`, never `@testable`).
        .testTarget(
            name: "ReadmeSamplesTests",
            dependencies: ["ComposeApp", "ComposeTesting", "ComposePersistence", "ComposeConfiguration", "ComposeStepper", "ComposeFraming", "ComposeTLS", "ComposeHTTP",
                           // The HTTP article's HTTPS and Testing sections.
                           "ComposeHTTPS", "ComposeHTTPTesting",
                           // README's "A terminal app" and ComposeTerminalTesting's overview.
                           "ComposeTerminal", "ComposeTerminalTesting"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
