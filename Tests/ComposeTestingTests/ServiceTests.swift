import ComposeApp
import ComposeTesting
import Testing

/// Services on the app context: registered by type, started in dependency
/// order before the root exists, stopped in reverse at shutdown,
/// overridable per test, and a diagnostic when missing.
@MainActor
@Suite struct ServiceTests {
    @Test func servicesStartInDependencyOrderBeforeTheRootAndStopInReverseAfterTheTree() throws {
        let app = TestApp(ServicesApp.self)
        let journal = try #require(app.journal)
        #expect(journal.entries == [
            "make database", "make cache", "make mail",
            "start database", "start cache", "start mail",
            "root init", "appear",
        ])
        #expect(app.diagnostics.isEmpty)

        journal.entries = []
        app.send(.terminate)
        app.runUntilExit()
        #expect(journal.entries == [
            "disappear",
            "stop mail", "mail stopped",
            "stop cache", "cache stopped",
            "stop database", "database stopped",
        ])
        #expect(app.exitStatus == 0)
        #expect(app.context.services.phase == .stopped)
    }

    @Test func aServiceRegisteredInATestReplacesTheAppsOwn() throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register((any MailService).self) { FakeMail() }
        })
        let journal = try #require(app.journal)
        // The app's SMTP mail is never made; what it depended on still is.
        #expect(journal.entries == ["make database", "make cache", "start database", "start cache", "root init", "appear"])

        app.run { app.root(as: ServicesApp.self)?.form.submitted.send("ada@example.com") }
        let fake = try #require(app.context.services.resolve((any MailService).self) as? FakeMail)
        #expect(fake.sent == ["ada@example.com"])
        #expect(!journal.entries.contains { $0.hasPrefix("smtp") })
        #expect(app.diagnostics.isEmpty)
    }

    @Test func twoAppsNeverShareAServiceInstance() throws {
        let first = TestApp(ServicesApp.self)
        let second = TestApp(ServicesApp.self)
        let firstDatabase = try #require(first.context.services.resolve(Database.self))
        let secondDatabase = try #require(second.context.services.resolve(Database.self))
        #expect(firstDatabase !== secondDatabase)
        #expect(first.journal !== second.journal)
    }

    @Test func aMissingServiceIsADiagnosticNamingTheTypeAndHowToRegisterIt() throws {
        let app = TestApp(root: SignUpForm())
        app.run {
            app.root(as: SignUpForm.self)?.submitted.send("ada@example.com")
            app.root(as: SignUpForm.self)?.submitted.send("grace@example.com")
        }
        // Reported once for the type, with the component that used it.
        #expect(app.diagnostics.map(\.code) == [.missingService])
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.message.hasPrefix("No service is registered as MailService."))
        #expect(diagnostic.message.contains("services.register(MailService.self) { ... }"))
        #expect(diagnostic.message.contains("TestApp(App.self, services:"))
        #expect(diagnostic.path == app.tree.root.path)
        #expect(!app.hasExited)

        #expect(app.context.services.resolve(Cache.self) == nil)
        #expect(app.diagnostics.map(\.code) == [.missingService, .missingService])
        #expect(app.diagnostics.last?.message.contains("Cache") == true)
    }

    @Test func aServiceMadeOnFirstUseIsMadeThenAndOnlyOnce() throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Greeting.self) { services in Greeting(journal: services.resolve(Journal.self)) }
        })
        let journal = try #require(app.journal)
        #expect(!journal.entries.contains("make greeting"))

        let greeting = app.context.services.resolve(Greeting.self)
        #expect(greeting?.text == "Welcome!")
        #expect(app.context.services.resolve(Greeting.self) === greeting)
        #expect(journal.entries.filter { $0 == "make greeting" }.count == 1)
    }

    @Test func aServiceWithALifecycleMadeOnFirstUseStartsThenAndStopsFirst() throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Ping.self, dependsOn: [Database.self]) { services in
                Ping("ping", journal: services.resolve(Journal.self))
            }
        })
        let journal = try #require(app.journal)
        #expect(!journal.entries.contains("make ping"))

        journal.entries = []
        _ = app.context.services.resolve(Ping.self)
        #expect(journal.entries == ["make ping", "start ping"])

        journal.entries = []
        app.send(.terminate)
        app.runUntilExit()
        #expect(journal.entries.filter { $0.hasPrefix("stop") } == ["stop ping", "stop mail", "stop cache", "stop database"])
    }

    @Test func aFailingStartStopsWhatStartedAndEndsTheAppWithItsStatus() throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Cache.self, creation: .atStart) { services in
                let cache = Cache("cache", journal: services.resolve(Journal.self), database: services.resolve(Database.self))
                cache.failsToStart = true
                return cache
            }
        })
        app.runUntilExit()
        let journal = try #require(app.journal)
        // No root: the database, which started, stops; mail never starts.
        #expect(journal.entries == [
            "make database", "make cache", "make mail",
            "start database",
            "stop database", "database stopped",
        ])
        #expect(app.tree == nil)
        #expect(app.exitStatus == ServiceRegistry.startFailureExitStatus)
        #expect(app.exitStatus == 69)
        #expect(app.diagnostics.map(\.code) == [.serviceStartFailed])
        #expect(app.diagnostics.first?.message.hasPrefix("Cache.start() threw unreachable.") == true)
    }

    @Test func aServiceMadeOnFirstUseThatFailsToStartShutsTheAppDownWithTheStartStatus() throws {
        let app = TestApp(ServicesApp.self, services: { services in
            services.register(Ping.self) { services in
                let ping = Ping("ping", journal: services.resolve(Journal.self))
                ping.failsToStart = true
                return ping
            }
        })
        #expect(app.run { app.context.services.resolve(Ping.self) } != nil)
        app.runUntilExit()
        #expect(app.exitStatus == ServiceRegistry.startFailureExitStatus)
        #expect(app.diagnostics.map(\.code) == [.serviceStartFailed])
        #expect(app.diagnostics.first?.message.hasPrefix("Ping.start() threw unreachable. The app shuts down") == true)
        // The others, started with the app, stop as usual.
        #expect(app.journal?.entries.filter { $0.hasPrefix("stop") } == ["stop mail", "stop cache", "stop database"])
    }

    @Test func servicesThatDependOnEachOtherInACircleKeepTheAppFromStarting() {
        let app = TestApp(root: Quiet(), services: { services in
            services.register(Ping.self, creation: .atStart, dependsOn: [Pong.self]) { Ping("ping", journal: nil) }
            services.register(Pong.self, dependsOn: [Ping.self]) { Pong("pong", journal: nil) }
        })
        app.runUntilExit()
        #expect(app.exitStatus == ServiceRegistry.startFailureExitStatus)
        #expect(app.tree == nil)
        #expect(app.diagnostics.map(\.code) == [.serviceDependency])
        #expect(app.diagnostics.first?.message.contains("in a circle: Ping → Pong → Ping.") == true)
    }

    @Test func aDependencyNoOneRegisteredKeepsTheAppFromStarting() {
        let app = TestApp(root: Quiet(), services: { services in
            services.register(Ping.self, dependsOn: [Database.self]) { Ping("ping", journal: nil) }
        })
        app.runUntilExit()
        #expect(app.exitStatus == 69)
        #expect(app.diagnostics.map(\.code) == [.serviceDependency])
        #expect(app.diagnostics.first?.message.hasPrefix("Ping depends on Database, which is not registered.") == true)
    }

    @Test func aServiceRegisteredAfterTheStartIsADiagnostic() {
        let app = TestApp(root: Quiet())
        app.context.services.register(Greeting.self) { Greeting(journal: nil) }
        #expect(app.diagnostics.map(\.code) == [.serviceRegisteredTooLate])
        #expect(!app.context.services.isRegistered(Greeting.self))
    }
}
