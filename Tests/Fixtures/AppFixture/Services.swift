import ComposeApp

/// With COMPOSE_SERVICES set, the fixture app has two services: a mailer
/// that depends on a store (registered after it). The store takes 50 ms of
/// the app's clock (real time here) to start and to stop, so both happen
/// in tasks the loop must wait for; with COMPOSE_SERVICES=fail the mailer's
/// start throws. The mailer's start reads the app's configuration
/// (`mailFrom`: FIXTURE_APP_MAIL_FROM, `--mail-from`), installed before it starts.
enum FixtureServices {
    @MainActor
    static func register(in services: ServiceRegistry) {
        guard let plan = environment("COMPOSE_SERVICES") else { return }
        services.register(FixtureMailer.self, creation: .atStart, dependsOn: [FixtureStore.self]) {
            FixtureMailer(failsToStart: plan == "fail")
        }
        services.register(FixtureStore.self) { FixtureStore() }
    }
}

@MainActor
final class FixtureStore: ServiceLifecycle {
    func start() async throws {
        try await Application.clock.sleep(for: .milliseconds(50))   // real time: this fixture is a real process, showing a start that takes a while
        say("start store")
    }

    func stop() async {
        // Not a sleep: sleeps end at once during a shutdown.
        guard let scheduler = AppContext.current?.scheduler else { return }
        await withCheckedContinuation { continuation in
            _ = scheduler.schedule(after: .milliseconds(50)) { continuation.resume() }
        }
        say("stop store")
    }
}

@MainActor
final class FixtureMailer: ServiceLifecycle {
    enum Failure: Error {
        case refused
    }

    let failsToStart: Bool

    init(failsToStart: Bool) {
        self.failsToStart = failsToStart
    }

    func start() async throws {
        if failsToStart { throw Failure.refused }
        if let sender = Application.config.string(forKey: "mailFrom") {
            say("start mailer from \(sender)")
        } else {
            say("start mailer")
        }
    }

    func stop() async {
        say("stop mailer")
    }
}
