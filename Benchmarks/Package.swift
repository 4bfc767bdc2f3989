// swift-tools-version: 6.1
import PackageDescription

// The benchmarks live in their own package so that the project itself does
// not depend on OpenCombine. Run them with `make bench` from the project root.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ComposeBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Compose", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "ComposeBenchmarks",
            dependencies: [
                "BenchmarkTrees",
                .product(name: "Compose", package: "Compose"),
                .product(name: "OpenCombine", package: "OpenCombine"),
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
    ],
    swiftLanguageModes: [.v6]
)
