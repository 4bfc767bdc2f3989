import ComposeApp
import ComposeTesting
import Testing

/// Services that take time to start or stop, on virtual time: the root
/// waits for their start, a shutdown interrupts it, and each stop has its
/// share of the shutdown deadline.
@MainActor
@Suite struct ServiceTimingTests {
    @Test func theRootIsCreatedOnceASlowStartHasEnded() async throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Database.self) { services in
                let database = Database("database", journal: services.resolve(Journal.self))
                database.startTakes = .seconds(2)
                return database
            }
        })
        #expect(app.tree == nil)
        #expect(app.root(as: ServicesApp.self) == nil)

        await app.advance(by: .seconds(2))
        let journal = try #require(app.journal)
        #expect(journal.entries == [
            "make database", "make cache", "make mail",
            "starting database", "start database", "start cache", "start mail",
            "root init", "appear",
        ])
        #expect(app.root(as: ServicesApp.self) != nil)
        #expect(app.context.services.phase == .running)
    }

    @Test func aShutdownWhileServicesStartEndsTheAppWithoutARoot() async throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Database.self) { services in
                let database = Database("database", journal: services.resolve(Journal.self))
                database.startTakes = .seconds(5)
                return database
            }
        })
        await app.advance(by: .seconds(1))
        app.send(.terminate)
        await app.settle()
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(1))
        #expect(app.tree == nil)
        // The start was cancelled: nothing started, so nothing stops.
        #expect(app.journal?.entries == ["make database", "make cache", "make mail", "starting database"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aSecondSignalWhileAStartIgnoresTheFirstEndsTheAppAtOnce() async {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Database.self) { services in
                let database = Database("database", journal: services.resolve(Journal.self))
                database.startTakes = .seconds(5)
                database.startIgnoresCancellation = true
                return database
            }
        })
        await app.advance(by: .seconds(1))
        app.send(.terminate)
        await app.settle()
        #expect(!app.hasExited)
        app.send(.interrupt)
        #expect(app.exitStatus == 128 + ProcessSignal.Name.interrupt.rawValue)
        // The start that went on regardless finds the app ended.
        await app.advance(by: .seconds(4))
        #expect(app.tree == nil)
        #expect(app.journal?.entries.last == "start database")
    }

    @Test func eachStopHasAShareOfTheDeadlineAndOneThatOverrunsDoesNotHoldUpTheRest() async throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register((any MailService).self, creation: .atStart, dependsOn: [Cache.self]) { services in
                let mail = SMTPMail("mail", journal: services.resolve(Journal.self))
                mail.stopTakes = .seconds(1)
                return mail
            }
            services.register(Cache.self, creation: .atStart) { services in
                let cache = Cache("cache", journal: services.resolve(Journal.self), database: services.resolve(Database.self))
                cache.stopTakes = nil   // never, until cancelled
                return cache
            }
        })
        let journal = try #require(app.journal)
        journal.entries = []
        // A 9 s deadline: mail may take 9/4 s (three to stop, one share
        // kept back) and takes 1; the cache may take what is left, 8 s,
        // over three: it is cancelled at 1 + 8/3 s, and the database stops.
        app.send(.terminate)
        await app.runUntilExit()
        #expect(app.exitStatus == 0)
        #expect(app.now == .seconds(1) + .seconds(8) / 3)
        #expect(Array(journal.entries.prefix(6)) == [
            "disappear",
            "stop mail", "mail stopped",
            "stop cache",
            "stop database", "database stopped",
        ])
        #expect(journal.entries.last == "cache cancelled")
        #expect(app.diagnostics.map(\.code) == [.serviceStopOverran])
        #expect(app.diagnostics.first?.message.hasPrefix("Cache.stop() did not finish within 2.6666") == true)
    }
}
