import ComposeApp
import ComposeTesting

// The services of a test app write what they did in a `Journal`
// (TestAppFixtures.swift), registered as a service: each app has its own.

/// A service that writes its creation, start and stop in its app's
/// journal, and can be told to take time or fail.
@MainActor
class JournaledService: ServiceLifecycle {
    /// How long `start()` sleeps on the app's clock.
    var startTakes: Duration = .zero
    /// Whether `start()` waits on the app's scheduler instead, deaf to
    /// cancellation.
    var startIgnoresCancellation = false
    var failsToStart = false
    /// How long `stop()` takes on the app's scheduler; `nil`: until it is
    /// cancelled.
    var stopTakes: Duration? = .zero
    let name: String
    let journal: Journal?

    init(_ name: String, journal: Journal?) {
        self.name = name
        self.journal = journal
        journal?.entries.append("make \(name)")
    }

    func start() async throws {
        if startTakes > .zero {
            journal?.entries.append("starting \(name)")
            if startIgnoresCancellation, let scheduler = AppContext.current?.scheduler {
                await withCheckedContinuation { continuation in
                    _ = scheduler.schedule(after: startTakes) { continuation.resume() }
                }
            } else {
                try await AppContext.current?.clock.sleep(for: startTakes)   // the app's clock: virtual time in a TestApp
            }
        }
        if failsToStart { throw ServiceFailure.unreachable }
        journal?.entries.append("start \(name)")
    }

    func stop() async {
        journal?.entries.append("stop \(name)")
        if let stopTakes {
            if stopTakes > .zero, let scheduler = AppContext.current?.scheduler {
                await withCheckedContinuation { continuation in
                    _ = scheduler.schedule(after: stopTakes) { continuation.resume() }
                }
            }
        } else {
            // An AsyncStream that never ends, until the task is cancelled.
            let (never, continuation) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            continuation.finish()
        }
        journal?.entries.append(Task.isCancelled ? "\(name) cancelled" : "\(name) stopped")
    }
}

enum ServiceFailure: Error {
    case unreachable
}

final class Database: JournaledService {}

/// Resolves the database in its factory: that makes it a dependency.
final class Cache: JournaledService {
    let database: Database?

    init(_ name: String, journal: Journal?, database: Database?) {
        self.database = database
        super.init(name, journal: journal)
    }
}

@MainActor
protocol MailService: AnyObject {
    func send(to address: String)
}

final class SMTPMail: JournaledService, MailService {
    func send(to address: String) {
        journal?.entries.append("smtp to \(address)")
    }
}

@MainActor
final class FakeMail: MailService {
    var sent: [String] = []
    func send(to address: String) { sent.append(address) }
}

/// Made on first use; no lifecycle.
@MainActor
final class Greeting {
    init(journal: Journal?) { journal?.entries.append("make greeting") }
    let text = "Welcome!"
}

/// A component that sends mail through its app's service.
struct SignUpForm: Component {
    @Service var mail: (any MailService)?
    let submitted = Emitter<String>()

    var observers: Void {
        submitted += { mail?.send(to: $0) }
    }
}

/// An app with mail, a cache and a database, registered dependents
/// first: mail declares the cache, the cache's factory resolves the
/// database (made on first use, so at start because the cache needs it).
/// Its shutdown deadline is 9 s.
struct ServicesApp: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(shutdownDeadline: .seconds(9))
    }

    @Service var journal: Journal?
    let form = SignUpForm()

    init() {
        AppContext.current?.services.resolve(Journal.self)?.entries.append("root init")
    }

    var observers: Void {
        didAppear += { journal?.entries.append("appear") }
        didDisappear += { journal?.entries.append("disappear") }
    }

    static func registerServices(in services: ServiceRegistry) {
        services.register(Journal.self) { Journal() }
        services.register((any MailService).self, creation: .atStart, dependsOn: [Cache.self]) { services in
            SMTPMail("mail", journal: services.resolve(Journal.self))
        }
        services.register(Cache.self, creation: .atStart) { services in
            Cache("cache", journal: services.resolve(Journal.self), database: services.resolve(Database.self))
        }
        services.register(Database.self) { services in
            Database("database", journal: services.resolve(Journal.self))
        }
    }
}

/// An empty root, for apps whose services are the subject.
struct Quiet: Component {
    var observers: Void { None }
}

/// Two services that need each other.
final class Ping: JournaledService {}
final class Pong: JournaledService {}

extension TestApp {
    /// The app's journal (its service).
    var journal: Journal? { context.services.resolve(Journal.self) }
}
