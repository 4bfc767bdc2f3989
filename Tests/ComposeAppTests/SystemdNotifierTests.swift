import ComposeApp
import ComposeTesting
import Foundation
import Testing

/// An app that tells systemd what it does: "serving" once it appears,
/// "reloaded" after each reload.
struct StatusApp: Component {
    var observers: Void {
        didAppear += { Application.systemd.status = "serving" }
        Application.configurationDidReload += { Application.systemd.status = "reloaded" }
    }
}

/// A service whose start takes three seconds of the app's clock.
@MainActor
final class SlowStartService: ServiceLifecycle {
    func start() async throws {
        try await Application.clock.sleep(for: .seconds(3))   // the app clock: virtual time
    }
}

/// The notify protocol as a `TestApp` records it: what the runtime sends
/// at each step of the app's life, the status from the app's code, and the
/// watchdog on virtual time. (Real sockets: SystemdSocketTests; a real
/// daemon: SystemdDaemonTests.)
@MainActor
@Suite struct SystemdNotifierTests {
    @Test func readyIsSentOnceTheRootIsActiveAfterTheStatusItsActivationSet() {
        let app = TestApp(root: StatusApp(), setUp: { $0.runsUnderSystemd() })
        #expect(app.systemdNotifications == ["STATUS=serving", "READY=1"])
        #expect(app.context.systemd.isEnabled)
        #expect(app.context.systemd.status == "serving")
    }

    @Test func readyWaitsForServicesThatTakeTimeToStart() async {
        let app = TestApp(root: Bare(), setUp: { $0.runsUnderSystemd() }, services: { services in
            services.register(SlowStartService.self, creation: .atStart) { SlowStartService() }
        })
        await app.advance(by: .milliseconds(2999))
        #expect(app.systemdNotifications == [])
        await app.advance(by: .milliseconds(1))
        #expect(app.systemdNotifications == ["READY=1"])
    }

    @Test func aHangupIsReportedAsReloadingAtItsMonotonicTimeThenReadyAroundTheReload() {
        let app = TestApp(root: StatusApp(), setUp: { $0.runsUnderSystemd() })
        app.advance(by: .milliseconds(5250))
        app.send(.hangup)
        #expect(app.systemdNotifications == [
            "STATUS=serving", "READY=1",
            "RELOADING=1\nMONOTONIC_USEC=5250000", "STATUS=reloaded", "READY=1",
        ])
    }

    @Test func stoppingIsSentWhenTheShutdownBeginsAndNothingAfterTheAppExited() {
        let app = TestApp(root: StatusApp(), setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "2000000"]) })
        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.systemdNotifications == ["STATUS=serving", "READY=1", "STOPPING=1"])
        app.run { Application.systemd.status = "gone" }
        app.advance(by: .seconds(10))
        #expect(app.systemdNotifications.count == 3)
        #expect(!app.context.systemd.isEnabled)
    }

    @Test func theWatchdogIsPingedEveryHalfOfWatchdogUsec() {
        let app = TestApp(root: Bare(), setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "10000000"]) })
        #expect(app.context.systemd.watchdogInterval == .seconds(5))
        app.advance(by: .milliseconds(4999))
        #expect(!app.systemdNotifications.contains("WATCHDOG=1"))
        app.advance(by: .milliseconds(1))
        #expect(app.systemdNotifications == ["READY=1", "WATCHDOG=1"])
        app.advance(by: .seconds(55))
        #expect(app.systemdNotifications.filter { $0 == "WATCHDOG=1" }.count == 12)
    }

    @Test(arguments: [("1", false), ("\(getpid())", true), ("", true)])
    func theWatchdogIsOnlyPingedWhenWatchdogPidIsUnsetOrThisProcess(pid: String, pings: Bool) {
        let app = TestApp(root: Bare(), setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "1000000", "WATCHDOG_PID": pid]) })
        app.advance(by: .seconds(2))
        #expect(app.systemdNotifications.contains("WATCHDOG=1") == pings)
    }

    @Test func theWatchdogDoesNotKeepAnAppWithNothingToDoRunning() {
        let app = TestApp(root: Bare(), setUp: { $0.runsUnderSystemd(["WATCHDOG_USEC": "1000000"]) })
        app.runUntilExit(limit: .seconds(60))
        #expect(app.exitStatus == 0)
        #expect(app.now < .seconds(1))
        #expect(app.systemdNotifications == ["READY=1", "STOPPING=1"])
    }

    @Test func withoutNotifySocketNothingIsSentAndTheStatusIsStillKept() {
        for setUp in [{ (_: TestApp) in }, { $0.runsUnderSystemd(["NOTIFY_SOCKET": "", "WATCHDOG_USEC": "1000000"]) }] {
            let app = TestApp(root: StatusApp(), setUp: setUp)
            app.advance(by: .seconds(5))
            app.send(.hangup)
            app.run {
                Application.systemd.extendTimeout(by: .seconds(30))
                Application.systemd.notify("ERRNO=5")
            }
            app.send(.terminate)
            app.runUntilExit()
            #expect(app.systemdNotifications == [])
            #expect(app.context.systemd.sentCount == 0)
            #expect(app.context.systemd.watchdogInterval == nil)
            #expect(!app.context.systemd.isEnabled)
            #expect(app.context.systemd.status == "reloaded")
        }
    }

    @Test func extendTimeoutStatusLinesAndRawAssignmentsAreSentAsTheProtocolWritesThem() {
        let app = TestApp(root: Bare(), setUp: { $0.runsUnderSystemd() })
        app.run {
            let systemd = Application.systemd
            systemd.extendTimeout(by: .seconds(30))
            systemd.extendTimeout(by: .milliseconds(1500))
            systemd.extendTimeout(by: .zero)
            systemd.status = "draining\n3 connections"
            systemd.status = "draining\n3 connections"
            systemd.status = nil
            systemd.notify("STATUS=Disk full", "ERRNO=28")
        }
        #expect(app.systemdNotifications == [
            "READY=1",
            "EXTEND_TIMEOUT_USEC=30000000", "EXTEND_TIMEOUT_USEC=1500000",
            "STATUS=draining 3 connections", "STATUS=",
            "STATUS=Disk full\nERRNO=28",
        ])
    }

    @Test func applicationSystemdOutsideAnAppReportsADiagnosticAndSendsNothing() {
        let reported = Diagnostics.collectUnattached {
            let systemd = Application.systemd
            systemd.status = "nowhere"
            #expect(!systemd.isEnabled)
            #expect(systemd.sentCount == 0)
        }
        #expect(reported.contains { $0.code == .noRunningApp && $0.message.contains("Application.systemd") })
    }

    // MARK: The environment

    @Test func theEnvironmentIsReadAsSystemdWritesIt() {
        let full = SystemdEnvironment(
            ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "42", "JOURNAL_STREAM": "8:12345"],
            processID: 42
        )
        #expect(full.notifySocket == "/run/systemd/notify")
        #expect(full.watchdogTimeout == .seconds(30))
        #expect(full.journalStream == JournalStream(device: 8, inode: 12345))
        #expect(SystemdEnvironment.none == SystemdEnvironment([:]))
        #expect(SystemdEnvironment(["NOTIFY_SOCKET": ""]).notifySocket == nil)
        for bad in ["0", "-1", "abc", "", "1.5", "99999999999999999999"] {
            #expect(SystemdEnvironment(["WATCHDOG_USEC": bad]).watchdogTimeout == nil, "\(bad)")
        }
        #expect(SystemdEnvironment(["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "41"], processID: 42).watchdogTimeout == nil)
        #expect(SystemdEnvironment(["WATCHDOG_USEC": "1000", "WATCHDOG_PID": "x"], processID: 42).watchdogTimeout == nil)
        for bad in ["8", "8:", ":5", "a:b", "8:5:1", "-8:5", ""] {
            #expect(JournalStream(parsing: bad) == nil, "\(bad)")
        }
    }
}
