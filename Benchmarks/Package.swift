// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the project itself does
// not depend on OpenCombine or SwiftNIO. Run them with `make bench` from the
// project root: the ComposeBenchmarks runner measures in process (emitters,
// binding, routing) and starts the other executables below as child
// processes (timer lateness, startup, TCP echo), which it finds next to
// itself in .build/release: build every product first (`swift build -c
// release`, which `make bench` does).
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
/// The C contenders: optimised like the Swift ones, every warning enabled.
let cSettings: [CSetting] = [.unsafeFlags(["-O2", "-Wall", "-Wextra"])]
let libuv: [LinkerSetting] = [.linkedLibrary("uv")]
/// The platform's OpenSSL (libssl-dev), for the TLS contenders.
let openssl: [LinkerSetting] = [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
/// The Swift runtime, the standard library and Foundation linked into the
/// executable (unsafeFlags are fine: nothing depends on this package).
/// FoundationEssentials' static archive needs two more that the driver
/// does not add by itself.
let staticStdlib: [LinkerSetting] = [.unsafeFlags([
    "-static-stdlib", "-Xlinker", "-l:lib_FoundationCollections.a", "-Xlinker", "-l:lib_FoundationCShims.a",
])]

let package = Package(
    name: "ComposeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Compose", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // The HTTP benchmark's Swift peer (HTTPHummingbird).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "ComposeBenchmarks",
            dependencies: [
                "BenchmarkTrees",
                .product(name: "Compose", package: "Compose"),
                .product(name: "ComposeApp", package: "Compose"),
                .product(name: "ComposePersistence", package: "Compose"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        // The lower levels of the bind benchmark's component trees, behind a
        // resilient boundary so that the 11k- and 100k-component structs
        // built on them compile in seconds (Sources/BenchmarkTrees/Trees.swift
        // says why). Library evolution makes the compiler warn that Compose
        // itself is not built with it, which is irrelevant here (nothing is
        // distributed as a binary), hence -suppress-warnings on this
        // declarations-only module. unsafeFlags are fine: nothing depends on
        // this package.
        .target(
            name: "BenchmarkTrees",
            dependencies: [.product(name: "Compose", package: "Compose")],
            swiftSettings: strictSettings + [.unsafeFlags(["-enable-library-evolution", "-suppress-warnings"])]
        ),

        // Instruction counts of the in-process cases, for valgrind's
        // callgrind (scripts/instructions.py): repeatable on a busy machine.
        .executableTarget(
            name: "InstructionCounts",
            dependencies: [
                "BenchmarkTrees",
                .product(name: "Compose", package: "Compose"),
                .product(name: "ComposeApp", package: "Compose"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                // IsolationCost: closures handed to nonisolated functions
                // ([UInt8]'s and ByteBuffer's), ByteBuffer's search.
                .product(name: "ComposeFraming", package: "Compose"),
            ],
            swiftSettings: strictSettings
        ),

        // Timer lateness: a 1 ms LoopTimer in a Compose app, and the same
        // timer in plain C on libuv.
        .executableTarget(
            name: "TimerCompose",
            dependencies: [.product(name: "ComposeApp", package: "Compose")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "TimerC", cSettings: cSettings, linkerSettings: libuv),

        // Startup: process start to the root's didAppear, and to a plain C
        // libuv program's first callback.
        .executableTarget(
            name: "StartupCompose",
            dependencies: [.product(name: "ComposeApp", package: "Compose")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "StartupC", cSettings: cSettings, linkerSettings: libuv),
        // SwiftNIO's first task on its one event-loop thread.
        .executableTarget(
            name: "StartupNIO",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "StartupNIOStatic",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: staticStdlib
        ),
        // The same app linked with -static-stdlib: the Swift runtime and
        // Foundation inside the executable instead of shared libraries, so
        // the dynamic loader has less to map and relocate
        // (docs/footprint.md). Its one source file is a symbolic link to
        // StartupCompose's.
        .executableTarget(
            name: "StartupComposeStatic",
            dependencies: [.product(name: "ComposeApp", package: "Compose")],
            swiftSettings: strictSettings,
            linkerSettings: staticStdlib
        ),

        // TCP echo: the Compose daemon, plain C on libuv, SwiftNIO on one
        // event-loop thread, and the load client that drives all three.
        .executableTarget(
            name: "EchoCompose",
            dependencies: [.product(name: "ComposeApp", package: "Compose")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "EchoC", cSettings: cSettings, linkerSettings: libuv),
        // The same daemon through frames (ComposeFraming, NIOCore's
        // ByteBuffer): what framing costs per message and in memory
        // (docs/protocols.md).
        .executableTarget(
            name: "EchoFramed",
            dependencies: [.product(name: "ComposeFraming", package: "Compose")],
            swiftSettings: strictSettings
        ),
        // Memory (docs/footprint.md): the echo daemon linked with
        // -static-stdlib (a symbolic link to EchoCompose's source), and the
        // floor under any Swift program, one that only waits, linked the
        // same way.
        .executableTarget(
            name: "EchoComposeStatic",
            dependencies: [.product(name: "ComposeApp", package: "Compose")],
            swiftSettings: strictSettings,
            linkerSettings: staticStdlib
        ),
        .executableTarget(name: "IdleSwiftStatic", swiftSettings: strictSettings, linkerSettings: staticStdlib),
        // A floor: EchoC's server written in Swift straight on libuv (no
        // Compose, no Foundation), dynamically linked like EchoCompose.
        .systemLibrary(name: "CUV", pkgConfig: "libuv"),
        .executableTarget(name: "EchoSwiftUV", dependencies: ["CUV"], swiftSettings: strictSettings),
        .executableTarget(
            name: "EchoNIO",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        // The same three linked with -static-stdlib (symbolic links to
        // their sources): the fair comparison with EchoComposeStatic, and
        // the floor of a statically linked Swift program on libuv.
        .executableTarget(
            name: "EchoNIOStatic",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings,
            linkerSettings: staticStdlib
        ),
        .executableTarget(name: "EchoSwiftUVStatic", dependencies: ["CUV"], swiftSettings: strictSettings, linkerSettings: staticStdlib),
        .executableTarget(name: "EchoLoad", cSettings: cSettings, linkerSettings: [.linkedLibrary("pthread")]),

        // TLS echo and handshakes (make bench-tls, scripts/tls_bench.py):
        // EchoCompose's daemon with `tls:` on its listener, EchoC with
        // OpenSSL through memory BIOs (the anchor), and their load client,
        // EchoLoad over OpenSSL.
        .executableTarget(
            name: "EchoTLSCompose",
            dependencies: [.product(name: "ComposeTLS", package: "Compose")],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "EchoTLSC", cSettings: cSettings, linkerSettings: libuv + openssl),
        .executableTarget(name: "TLSLoad", cSettings: cSettings, linkerSettings: openssl),

        // HTTP (make bench-http, scripts/http_bench.py, driven by wrk): a
        // hello-world on ComposeHTTP, the same two routes on Hummingbird 2
        // with one event-loop thread, and the floor, a C libuv server on
        // libhttp-parser (EchoC's design). Node.js's `http` is
        // scripts/http_node.js.
        .executableTarget(
            name: "HTTPCompose",
            dependencies: [.product(name: "ComposeHTTP", package: "Compose")],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "HTTPHummingbird",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(name: "HTTPC", cSettings: cSettings, linkerSettings: libuv + [.linkedLibrary("http_parser")]),

        // Terminal frames (make bench-terminal, scripts/terminal_bench.py):
        // ComposeTerminal's FrameRenderer on a 200x60 screen, one changed
        // line per frame and whole redraws, against copying the same bytes.
        .executableTarget(
            name: "TerminalRender",
            dependencies: [.product(name: "ComposeTerminal", package: "Compose")],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
