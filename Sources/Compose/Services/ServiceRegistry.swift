/// An app's services, by type: registered before the app starts, created
/// on first use or at start, started before the root component exists and
/// stopped after the tree is torn down. Reached as
/// ``AppContext/services``; each app (each `TestApp`) has its own, so two
/// apps in one process never share an instance.
///
/// Register services in the app's `StartupComponent`, keyed by a protocol
/// or a concrete type:
///
/// ```swift
/// extension ChatApp: StartupComponent {
///     static func registerServices(in services: ServiceRegistry) {
///         services.register(AuditLog.self, creation: .atStart) { FileAuditLog() }
///         services.register(MailService.self, dependsOn: [AuditLog.self]) { services in
///             SMTPMail(audit: services.resolve(AuditLog.self))
///         }
///     }
/// }
/// ```
///
/// Use them from any component with ``Service`` (optional: `nil`, with a
/// diagnostic, when no one registered the type), or from any code of the
/// app with ``resolve(_:)``:
///
/// ```swift
/// struct SignUp: Component {
///     @Service var mail: MailService?
///     let submitted = Emitter<String>()
///     var observers: Void {
///         submitted += { address in mail?.send(Welcome(to: address)) }
///     }
/// }
/// let mail = context.services.resolve(MailService.self)
/// ```
///
/// A test replaces any of them (registering a type again replaces it):
///
/// ```swift
/// let app = TestApp(ChatApp.self, services: { services in
///     services.register(MailService.self) { FakeMail() }
/// })
/// ```
///
/// **Lifecycle.** A service whose instance conforms to
/// ``ServiceLifecycle`` is started and stopped by the app:
/// - At start, before the root component's `init()`, the registry checks
///   the declared dependencies (`dependsOn:`): a type no one registered, or
///   services that depend on each other in a circle, is a
///   ``Diagnostic/Code/serviceDependency`` diagnostic naming the types, and
///   the app does not start. Then it creates the ``Creation/atStart``
///   services and what they depend on, dependencies first, and starts them
///   one after the other in that order (a factory that resolves another
///   service makes it a dependency too). If one throws, the ones started are
///   stopped in reverse order and the app exits with
///   ``startFailureExitStatus``.
/// - A ``Creation/onFirstUse`` service is created when first resolved; its
///   declared dependencies are resolved first, and its `start()` begins at
///   once (it has finished when `resolve` returns, unless it suspends).
/// - At graceful shutdown, after the component tree is torn down, the
///   started services stop in the reverse order of their start, one at a
///   time, each within an equal share of what is left of the shutdown
///   deadline (one share is kept back for the rest of the shutdown). A stop
///   that overruns its share is cancelled and reported
///   (``Diagnostic/Code/serviceStopOverran``); the others still stop.
///
/// **Missing services.** Using a type no one registered is never a crash:
/// ``resolve(_:)`` and ``Service`` return `nil` and report a
/// ``Diagnostic/Code/missingService`` diagnostic naming the type and how to
/// register it, once per type and app. Ask ``isRegistered(_:)`` first for a
/// service that is optional by design.
@MainActor
public final class ServiceRegistry {
    /// When a service is created.
    public enum Creation: Sendable, Equatable {
        /// On first use (``ServiceRegistry/resolve(_:)``, ``Service``), or
        /// at start when a service created at start depends on it.
        case onFirstUse
        /// When the app starts, before its root component is created.
        case atStart
    }

    /// Where an app's services are in their life.
    public enum Phase: Sendable, Equatable {
        /// Services are being registered; nothing has started.
        case registering
        /// The app is starting its services.
        case starting
        /// Every service created at start has started.
        case running
        /// The app is stopping its services.
        case stopping
        /// The services have stopped (or never started).
        case stopped
    }

    /// The exit status of an app whose services could not start (a
    /// missing dependency, a circle of dependencies, a `start()` that
    /// threw): 69, `EX_UNAVAILABLE` in `sysexits.h`.
    public static let startFailureExitStatus: Int32 = 69

    /// Where the services are in their life.
    public internal(set) var phase = Phase.registering

    struct Registration {
        let type: Any.Type
        let creation: Creation
        let dependencies: [Any.Type]
        let make: @MainActor (ServiceRegistry) -> Any
    }

    /// The app whose services these are (set by the context).
    weak var context: AppContext?
    var registrations: [ObjectIdentifier: Registration] = [:]
    /// Registered types, in the order they were first registered.
    var order: [ObjectIdentifier] = []
    var instances: [ObjectIdentifier: Any] = [:]
    /// Types whose factory runs now, innermost last.
    var creating: [ObjectIdentifier] = []
    /// Services each factory resolved: dependencies found by creating.
    var resolvedByFactory: [ObjectIdentifier: [ObjectIdentifier]] = [:]
    /// Types already reported as missing.
    var reportedMissing: Set<ObjectIdentifier> = []
    /// Whether the registry creates the services of its start plan (they
    /// start after, in order, rather than each at once).
    var isPlanning = false
    /// Dependency problems found while the start plan is created.
    var problems = 0
    /// Services whose `start()` returned, in that order.
    var started: [(id: ObjectIdentifier, service: any ServiceLifecycle)] = []
    /// The task starting the services created at start.
    var startTask: Task<Void, Never>?
    /// Tasks starting services created on first use, while they run.
    var firstUseStarts: [ObjectIdentifier: Task<Void, Never>] = [:]
    var startingOnFirstUse: Set<ObjectIdentifier> = []

    /// An empty registry; an ``AppContext`` makes its own.
    nonisolated init() {}

    // MARK: Registering

    /// Registers how to make the service known as `type` (replacing what
    /// was registered for it before: a test's override).
    ///
    /// ```swift
    /// services.register(MailService.self) { SMTPMail() }
    /// services.register(Database.self, creation: .atStart) { Postgres(url: databaseURL) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The key: a protocol (`MailService.self`) or a concrete type.
    ///   - creation: When the instance is made (on first use by default).
    ///   - dependencies: Service types this one needs: they are created
    ///     and started before it and stopped after it.
    ///   - make: Makes the one instance of this app.
    public func register<Value>(
        _ type: Value.Type,
        creation: Creation = .onFirstUse,
        dependsOn dependencies: [Any.Type] = [],
        _ make: @escaping @MainActor () -> Value
    ) {
        register(type, creation: creation, dependsOn: dependencies) { _ in make() }
    }

    /// Registers how to make the service known as `type`, from other
    /// services (each one it resolves becomes a dependency).
    ///
    /// ```swift
    /// services.register(MailService.self) { services in
    ///     SMTPMail(audit: services.resolve(AuditLog.self))
    /// }
    /// ```
    ///
    /// Registering after the services started does nothing and reports a
    /// ``Diagnostic/Code/serviceRegisteredTooLate`` diagnostic.
    ///
    /// - Parameters:
    ///   - type: The key: a protocol (`MailService.self`) or a concrete type.
    ///   - creation: When the instance is made (on first use by default).
    ///   - dependencies: Service types this one needs besides those `make`
    ///     resolves.
    ///   - make: Makes the one instance of this app, given this registry.
    public func register<Value>(
        _ type: Value.Type,
        creation: Creation = .onFirstUse,
        dependsOn dependencies: [Any.Type] = [],
        _ make: @escaping @MainActor (ServiceRegistry) -> Value
    ) {
        let name = Self.name(of: type)
        guard phase == .registering else {
            report(Diagnostic(.serviceRegisteredTooLate, "\(name) was registered after the app's services started: the registration was ignored. Register services in the app's `static func registerServices(in:)`, or in a test through `TestApp(App.self, services: { ... })`."))
            return
        }
        let id = ObjectIdentifier(type)
        if registrations[id] == nil { order.append(id) }
        registrations[id] = Registration(type: type, creation: creation, dependencies: dependencies) { make($0) }
        instances[id] = nil
    }

    /// Whether a service is registered as `type`.
    public func isRegistered(_ type: Any.Type) -> Bool {
        registrations[ObjectIdentifier(type)] != nil
    }

    // MARK: Resolving

    /// The app's instance of the service registered as `type`, created
    /// now if it does not exist yet; `nil` when no one registered it
    /// (reported once per type as a ``Diagnostic/Code/missingService``
    /// diagnostic naming the type and how to register it) or when its
    /// factory needs itself (a ``Diagnostic/Code/serviceDependency``
    /// diagnostic).
    ///
    /// ```swift
    /// context.services.resolve(MailService.self)?.send(message)
    /// ```
    public func resolve<Value>(_ type: Value.Type) -> Value? {
        resolve(type, for: nil)
    }

    /// ``resolve(_:)`` on behalf of the component at `path` (diagnostics
    /// name it).
    func resolve<Value>(_ type: Value.Type, for path: String?) -> Value? {
        instance(of: type, for: path) as? Value
    }

    func instance(of type: Any.Type, for path: String?) -> Any? {
        let id = ObjectIdentifier(type)
        if let instance = instances[id] {
            recordUse(of: id)
            return instance
        }
        guard let registration = registrations[id] else {
            reportMissing(type, for: path)
            return nil
        }
        if let first = creating.firstIndex(of: id) {
            let circle = (creating[first...] + [id]).map { name(of: $0) }.joined(separator: " → ")
            problems += 1
            report(Diagnostic(.serviceDependency, "Services need each other in a circle while being created: \(circle). Break the circle: resolve one of them later (when it is used) instead of in the factory.", path: path))
            return nil
        }
        let instance = create(id, registration)
        recordUse(of: id)
        return instance
    }

    private func create(_ id: ObjectIdentifier, _ registration: Registration) -> Any {
        creating.append(id)
        for dependency in registration.dependencies {
            _ = instance(of: dependency, for: nil)
        }
        let instance = registration.make(self)
        creating.removeLast()
        instances[id] = instance
        if !isPlanning, phase == .starting || phase == .running, let service = instance as? any ServiceLifecycle {
            startOnFirstUse(id, service)
        }
        return instance
    }

    /// A factory running now resolved `id`: the service it makes depends
    /// on `id`.
    private func recordUse(of id: ObjectIdentifier) {
        guard let dependent = creating.last, dependent != id else { return }
        resolvedByFactory[dependent, default: []].append(id)
    }

    private func reportMissing(_ type: Any.Type, for path: String?) {
        if phase == .starting { problems += 1 }
        guard reportedMissing.insert(ObjectIdentifier(type)).inserted else { return }
        let name = Self.name(of: type)
        let user = creating.last.map { " (\(self.name(of: $0)) needs it)" } ?? ""
        report(Diagnostic(.missingService, "No service is registered as \(name)\(user). Register one in the app's `static func registerServices(in services: ServiceRegistry)`: `services.register(\(name).self) { ... }`; in a test, `TestApp(App.self, services: { $0.register(\(name).self) { ... } })`.", path: path))
    }

    // MARK: Helpers

    /// How diagnostics name a service type (`MailService`).
    static func name(of type: Any.Type) -> String {
        String(describing: type)
    }

    func name(of id: ObjectIdentifier) -> String {
        registrations[id].map { Self.name(of: $0.type) } ?? "a service"
    }

    func report(_ diagnostic: Diagnostic) {
        if let context { context.report(diagnostic) } else { Diagnostics.report(diagnostic) }
    }
}
