import Foundation

/// What a new app needs to build on this machine: a Swift toolchain recent
/// enough for the generated Package.swift, and libuv's development files
/// found by pkg-config. Everything comes from `environment` (its `PATH`),
/// so tests can point it at fake tools.
struct ToolchainCheck {
    /// The oldest Swift the generated package builds with (its
    /// `swift-tools-version`).
    static let minimumSwift = (major: 6, minor: 1)

    let environment: [String: String]

    /// One line per thing missing, each saying how to install it; empty
    /// when the app can be built here.
    func problems() -> [String] {
        var problems: [String] = []
        if let swift = executable("swift") {
            let output = run(swift, ["--version"]) ?? ""
            if let version = Self.swiftVersion(in: output) {
                if (version.major, version.minor) < Self.minimumSwift {
                    problems.append("Swift \(version.major).\(version.minor) is too old: the app needs Swift \(Self.minimumSwift.major).\(Self.minimumSwift.minor) or later. Install it with swiftly (https://www.swift.org/install/linux/).")
                }
            } else {
                problems.append("\(swift) --version did not say which Swift it is; the app needs Swift \(Self.minimumSwift.major).\(Self.minimumSwift.minor) or later (https://www.swift.org/install/linux/).")
            }
        } else {
            problems.append("swift was not found on PATH: install Swift \(Self.minimumSwift.major).\(Self.minimumSwift.minor) or later with swiftly (https://www.swift.org/install/linux/).")
        }
        if let pkgConfig = executable("pkg-config") {
            if run(pkgConfig, ["--exists", "libuv"]) == nil {
                problems.append("libuv was not found by pkg-config: install its development files (Debian, Ubuntu: sudo apt-get install libuv1-dev; Fedora: sudo dnf install libuv-devel).")
            }
        } else {
            problems.append("pkg-config was not found on PATH, and the app finds libuv with it: install both (Debian, Ubuntu: sudo apt-get install pkg-config libuv1-dev; Fedora: sudo dnf install pkgconf libuv-devel).")
        }
        return problems
    }

    /// `major.minor` from `swift --version` output ("Swift version 6.3.1").
    static func swiftVersion(in output: String) -> (major: Int, minor: Int)? {
        guard let range = output.range(of: "Swift version ") else { return nil }
        let numbers = output[range.upperBound...].prefix(while: { $0.isNumber || $0 == "." }).split(separator: ".")
        guard numbers.count >= 2, let major = Int(numbers[0]), let minor = Int(numbers[1]) else { return nil }
        return (major, minor)
    }

    /// The first executable `name` on `PATH`.
    func executable(_ name: String) -> URL? {
        let path = environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The standard output of `executable arguments` when it exits 0,
    /// else `nil`. At most 64 KiB is read.
    private func run(_ executable: URL, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = (try? output.fileHandleForReading.read(upToCount: 64 << 10)) ?? Data()
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
