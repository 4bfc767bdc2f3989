import Foundation
import Testing

/// Services in the real runtime, as a process (the fixture app with
/// COMPOSE_SERVICES): their async start and stop run in tasks the libuv
/// loop waits for, and a failed start is an exit status. The ordering
/// logic itself is tested on a TestApp (ServiceTests, ServiceTimingTests).
@Suite struct ServiceProcessTests {
    @Test func servicesStartBeforeTheRootAndStopAfterTheTreeInReverseOrder() async throws {
        let app = try FixtureProcess("lifecycle", environment: ["COMPOSE_SERVICES": "ok"])
        try await app.waitFor("ready")
        #expect(app.output.lines == ["start store", "start mailer"] + ProcessLifecycleTests.startup, "\(app.transcript)")

        app.signal(SIGTERM)
        let status = await app.waitForExit()
        #expect(status == 0, "\(app.transcript)")
        #expect(app.output.lines.suffix(6) == ProcessLifecycleTests.shutdown + ["stop mailer", "stop store"], "\(app.transcript)")
    }

    @Test func servicesReadTheAppsConfigurationWhenTheyStart() async throws {
        let app = try FixtureProcess("lifecycle", environment: ["COMPOSE_SERVICES": "ok", "FIXTURE_APP_MAIL_FROM": "ops@example.org"])
        try await app.waitFor("ready")
        #expect(app.output.lines.prefix(2) == ["start store", "start mailer from ops@example.org"], "\(app.transcript)")
        app.signal(SIGTERM)
        #expect(await app.waitForExit() == 0, "\(app.transcript)")
    }

    @Test func aServiceThatFailsToStartEndsTheProcessWithStatus69BeforeTheRootExists() async throws {
        let app = try FixtureProcess("lifecycle", environment: ["COMPOSE_SERVICES": "fail"])
        let status = await app.waitForExit()
        #expect(status == 69, "\(app.transcript)")
        // The store started, so it stops; nothing of the tree ever ran.
        #expect(app.output.lines == ["start store", "stop store"], "\(app.transcript)")
        #expect(app.errors.text.contains("[serviceStartFailed] FixtureMailer.start() threw refused."), "\(app.transcript)")
    }
}
