import Foundation
import Testing

/// `compose new --systemd`: the units next to the daemon, checked by
/// `systemd-analyze verify` where it exists.
@Suite struct SystemdUnitTests {
    static var systemdAnalyze: URL? {
        ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].map(URL.init(fileURLWithPath:))
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(arguments: [nil, 2] as [Int?])
    func theUnitsAreWrittenNextToTheDaemonAndVerify(_ workers: Int?) throws {
        let folder = try ToolPaths.temporaryFolder()
        let arguments = ["new", "Echo", "--systemd", "--compose-path", ToolPaths.checkout.path] + (workers.map { ["--workers", "\($0)"] } ?? [])
        let run = try ToolRun.run(ToolPaths.compose, arguments, in: folder)
        #expect(run.status == 0, "\(run.errors)")
        let app = folder.appendingPathComponent("Echo")
        #expect(FileManager.default.fileExists(atPath: app.appendingPathComponent("Sources/Echo/Components/Server/Server.swift").path), "--systemd makes a daemon")
        let service = try String(contentsOf: app.appendingPathComponent("Echo.service"), encoding: .utf8)
        let socket = try String(contentsOf: app.appendingPathComponent("Echo.socket"), encoding: .utf8)
        let settings = Set(service.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
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

        guard let analyze = Self.systemdAnalyze else { return }   // no systemd here: the text checks above stand alone
        // verify checks that ExecStart exists: point it at one that does.
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
