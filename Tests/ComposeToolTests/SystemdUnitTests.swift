import Foundation
import Testing

/// `compose new --systemd`: the units next to the daemon, checked by
/// `systemd-analyze verify` where it exists.
@Suite struct SystemdUnitTests {
    static var systemdAnalyze: URL? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The units `compose new Echo --systemd` writes (with `--workers`).
    static func units(workers: Int?) throws -> (service: String, socket: String) {
        let folder = try ToolPaths.temporaryFolder()
        let arguments = ["new", "Echo", "--systemd", "--compose-path", ToolPaths.checkout.path] + (workers.map { ["--workers", "\($0)"] } ?? [])
        let run = try ToolRun.run(ToolPaths.compose, arguments, in: folder)
        #expect(run.status == 0, "\(run.errors)")
        let app = folder.appendingPathComponent("Echo")
        #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent("Sources/Echo/Components/Server/Server.swift").path), "--systemd makes a daemon")
        return (
            try String(contentsOf: app.appendingPathComponent("Echo.service"), encoding: .utf8),
            try String(contentsOf: app.appendingPathComponent("Echo.socket"), encoding: .utf8)
        )
    }

    /// The unit's lines that are not comments.
    static func settings(_ unit: String) -> Set<String> {
        Set(unit.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
    }

    @Test(arguments: [nil, 2] as [Int?])
    func theUnitsAreWrittenNextToTheDaemon(_ workers: Int?) throws {
        let (service, socket) = try Self.units(workers: workers)
        let settings = Self.settings(service)
        for line in ["Type=notify", "WatchdogSec=20", "Restart=on-failure", "ExecReload=/bin/kill -HUP $MAINPID"] {
            #expect(settings.contains(line), "\(line)")
        }
        if let workers {
            #expect(settings.contains("ExecStart=/usr/local/bin/Echo --port 8080 --workers \(workers)"))
            #expect(settings.contains("KillMode=mixed"))
        } else {
            #expect(settings.contains("ExecStart=/usr/local/bin/Echo --port 8080"))
            #expect(!service.contains("KillMode"))
        }
        #expect(socket.contains("\nListenStream=127.0.0.1:8080\n"))
    }

    /// `Wants=Echo.socket` in the service started the socket unit when only
    /// the service was enabled, against the unit's own comment. The service
    /// is ordered after the socket, and the socket unit starts it.
    @Test(arguments: [nil, 2] as [Int?])
    func theServiceDoesNotPullInItsSocket(_ workers: Int?) throws {
        let (service, socket) = try Self.units(workers: workers)
        let settings = Self.settings(service)
        #expect(!settings.contains { $0.hasPrefix("Wants=") || $0.hasPrefix("Requires=") || $0.hasPrefix("BindsTo=") }, "\(service)")
        #expect(settings.contains("After=network.target Echo.socket"))
        #expect(service.contains("enable --now Echo.service\n# alone, and the app binds --port itself"))
        #expect(!Self.settings(socket).contains { $0.hasPrefix("Accept=") }, "one service for all connections")
    }

    /// How socket activation and `--workers` combine is said where the
    /// workers are asked for.
    @Test func theWorkersServiceExplainsHowTheWorkersShareTheSocket() throws {
        let (service, _) = try Self.units(workers: 2)
        #expect(service.contains("passes it on to\n# every worker, and they accept on it together"), "\(service)")
        #expect(service.contains("each worker\n# binds --port itself with SO_REUSEPORT"), "\(service)")
        let (single, _) = try Self.units(workers: nil)
        #expect(!single.contains("SO_REUSEPORT"))
    }

    /// `systemd-analyze verify` of both units, before anything is
    /// installed: the test's copy of the service starts `/bin/true`, since
    /// verify checks that `ExecStart`'s executable exists.
    @Test(
        .enabled(if: systemdAnalyze != nil, "systemd-analyze is not installed on this machine (/usr/bin/systemd-analyze, /bin/systemd-analyze): the units' text is checked by the tests above only"),
        arguments: [nil, 2] as [Int?]
    )
    func theUnitsVerifyWithoutTheBinaryInstalled(_ workers: Int?) throws {
        let analyze = try #require(Self.systemdAnalyze)
        let (service, socket) = try Self.units(workers: workers)
        let units = try ToolPaths.temporaryFolder()
        try Data(service.replacingOccurrences(of: "/usr/local/bin/Echo", with: "/bin/true").utf8).write(to: units.appendingPathComponent("Echo.service"))
        try Data(socket.utf8).write(to: units.appendingPathComponent("Echo.socket"))
        let verified = try ToolRun.run(analyze, ["verify", "--man=no", "./Echo.service", "./Echo.socket"], in: units)
        // Unknown keys and bad values are only warnings: none may appear.
        #expect(verified.status == 0, "\(verified.errors)")
        #expect(verified.errors.isEmpty, "\(verified.errors)")
        #expect(verified.output.isEmpty, "\(verified.output)")
    }

    @Test(arguments: [
        (["--kind", "app", "--systemd"], "use --kind daemon"),
        (["--kind", "terminal", "--systemd"], "use --kind daemon"),
        (["--workers", "2"], "--workers goes with --systemd"),
        (["--systemd", "--workers", "0"], "--workers takes 1 to 256"),
    ])
    func unitOptionsThatDoNotFitAreRefused(_ options: [String], _ reason: String) throws {
        let folder = try ToolPaths.temporaryFolder()
        let run = try ToolRun.run(ToolPaths.compose, ["new", "Echo", "--compose-path", ToolPaths.checkout.path] + options, in: folder)
        #expect(run.status != 0)
        #expect(run.errors.contains(reason), "\(run.errors)")
        #expect(ToolPaths.files(in: folder).isEmpty)
    }
}
