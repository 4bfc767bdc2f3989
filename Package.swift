// swift-tools-version: 6.1
import PackageDescription

/// Strict settings shared by every target (see ../shared/STYLE.md, "Layout").
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Compose",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Compose", targets: ["Compose"]),
        .library(name: "ComposeApp", targets: ["ComposeApp"]),
        .library(name: "ComposeTesting", targets: ["ComposeTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
            dependencies: ["Compose", "CLibUV", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "ComposeTesting",
            dependencies: ["Compose"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTests",
            dependencies: ["Compose", "ComposeTesting"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeTestingTests",
            dependencies: ["ComposeTesting"],
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
            dependencies: ["ComposeApp"],
            path: "Examples/Chat",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "ReadmeStartup",
            dependencies: ["ComposeApp"],
            path: "Examples/ReadmeStartup",
            swiftSettings: strictSettings
        ),
        // The app ComposeAppTests start as a real process.
        .executableTarget(
            name: "ComposeFixture",
            dependencies: ["ComposeApp"],
            path: "Tests/Fixtures/AppFixture",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "ComposeAppTests",
            dependencies: ["ComposeApp", "ComposeFixture"],
            path: "Tests/ComposeAppTests",
            swiftSettings: strictSettings
        ),
        // The README's samples, compiled against the public API only
        // (plain `import`, never `@testable`).
        .testTarget(
            name: "ReadmeSamplesTests",
            dependencies: ["ComposeApp", "ComposeTesting"],
            swiftSettings: strictSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
