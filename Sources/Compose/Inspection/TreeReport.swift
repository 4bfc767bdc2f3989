/// What an app holds right now, as `compose inspect PID tree` shows it: its
/// components (with their emitters, stores, routers and containers) and its
/// services.
///
/// ```swift
/// let report = context.treeReport()
/// for component in report.components where component.isFocused {
///     print(component.path)        // app.server.sessions.1.lobby
/// }
/// ```
///
/// Made by ``AppContext/treeReport()``, which walks the whole tree: a few
/// microseconds per component, for inspection, not for every send.
public struct TreeReport: Hashable, Sendable {
    /// The app's name.
    public let app: String
    /// When the report was made, on the app's clock.
    public let time: Duration
    /// The route string of the focused chain (``ComponentTree/currentRoute``);
    /// empty when the root is not a router.
    public let route: String
    /// The deepest focused component's path, if the tree is active.
    public let focused: String?
    /// Every live component, depth first, parents before children; empty
    /// before the tree is bound and after it is destroyed.
    public let components: [ComponentReport]
    /// The app's services, in the order they were registered.
    public let services: [ServiceReport]
    /// Where the services are in their life.
    public let servicesPhase: ServiceRegistry.Phase
    /// Since when sends are counted (``AppContext/sendsCountedSince``);
    /// `nil` when they are not, and then every ``EmitterReport/sends`` is
    /// `nil`.
    public let sendsCountedSince: Duration?

    /// Makes a report (``AppContext/treeReport()`` makes the app's).
    public init(app: String, time: Duration, route: String, focused: String?, components: [ComponentReport], services: [ServiceReport], servicesPhase: ServiceRegistry.Phase, sendsCountedSince: Duration?) {
        self.app = app
        self.time = time
        self.route = route
        self.focused = focused
        self.components = components
        self.services = services
        self.servicesPhase = servicesPhase
        self.sendsCountedSince = sendsCountedSince
    }
}

/// One component of a ``TreeReport``.
public struct ComponentReport: Hashable, Sendable {
    /// Its label path (`app.server.sessions.1`).
    public let path: String
    /// Its property label (`1` for an instance of an `InstanceComponent`).
    public let label: String
    /// How deep it is: 0 for the root.
    public let depth: Int
    /// Its type's name (`SessionComponent`).
    public let type: String
    /// Whether it is part of the active tree.
    public let isActive: Bool
    /// Whether it is the deepest focused component.
    public let isFocused: Bool
    /// Its router's stack, bottom first (`["lobby", "room"]`; `self` for the
    /// router component itself), if it is a router component.
    public let routes: [String]?
    /// What it contains, if it is a container (`InstanceComponent`,
    /// `LazyComponent`, `DynamicComponent`).
    public let container: ContainerReport?
    /// The emitters it declares or adopts (a resource's), its stores'
    /// emitters of changes included.
    public let emitters: [EmitterReport]
    /// Its stores (`@Store`, mirrored stores).
    public let stores: [StoreReport]
    /// Its supervisor's strategy (`oneForOne`, ...), if it declares a
    /// `Supervisor`; its `Supervised` children report their restarts.
    public let supervisor: String?

    /// Makes a component's report.
    public init(path: String, label: String, depth: Int, type: String, isActive: Bool, isFocused: Bool, routes: [String]?, container: ContainerReport?, emitters: [EmitterReport], stores: [StoreReport], supervisor: String? = nil) {
        self.supervisor = supervisor
        self.path = path
        self.label = label
        self.depth = depth
        self.type = type
        self.isActive = isActive
        self.isFocused = isFocused
        self.routes = routes
        self.container = container
        self.emitters = emitters
        self.stores = stores
    }
}

/// A container of a ``ComponentReport``.
public struct ContainerReport: Hashable, Sendable {
    /// `InstanceComponent`, `LazyComponent`, `DynamicComponent` or
    /// `Supervised`.
    public let kind: String
    /// The type of its instances.
    public let contentType: String
    /// How many instances it holds now (0 or 1 for the single-instance
    /// kinds; 0 for a `Supervised` child waiting to restart).
    public let instances: Int
    /// How many times its supervisor restarted it, for a `Supervised`
    /// child; `nil` otherwise.
    public let restarts: Int?

    /// Makes a container's report.
    public init(kind: String, contentType: String, instances: Int, restarts: Int? = nil) {
        self.kind = kind
        self.contentType = contentType
        self.instances = instances
        self.restarts = restarts
    }
}

/// An emitter of a ``ComponentReport``.
public struct EmitterReport: Hashable, Sendable {
    /// Its name in event paths: the property (`increment`), or the resource
    /// and its property (`listener.errors`, `connection` for a resource's
    /// main emitter), `didAppear` and the like for lifecycle emitters.
    public let name: String
    /// Observers registered on it.
    public let observers: Int
    /// Sends counted since ``TreeReport/sendsCountedSince``; `nil` when
    /// sends are not counted, or never are for it (lifecycle and router
    /// emitters, whose changes are events of their own).
    public let sends: Int?
    /// The last value it sent, described and cut to
    /// ``maximumValueLength`` characters; `nil` when it keeps none (or for
    /// a signal).
    public let lastValue: String?

    /// How long ``lastValue`` may be before it is cut short.
    public static let maximumValueLength = 60

    /// Makes an emitter's report.
    public init(name: String, observers: Int, sends: Int?, lastValue: String?) {
        self.name = name
        self.observers = observers
        self.sends = sends
        self.lastValue = lastValue
    }
}

/// A store of a ``ComponentReport``.
public struct StoreReport: Hashable, Sendable {
    /// Its property (`state`).
    public let name: String
    /// Its state now, described and cut to
    /// ``EmitterReport/maximumValueLength`` characters.
    public let state: String
    /// The key it is persisted under (`@Store(persistedAs:)`), if any.
    public let persistedAs: String?
    /// Whether it is saved (`true`), or lives in memory only although it
    /// asked to be persisted (no state persistence in the app, a key used
    /// twice: `false`). `nil` for a store that is not persisted.
    public let isSaved: Bool?
    /// Whether it mirrors another store (`MappedStore`).
    public let isMirror: Bool

    /// Makes a store's report.
    public init(name: String, state: String, persistedAs: String?, isSaved: Bool?, isMirror: Bool) {
        self.name = name
        self.state = state
        self.persistedAs = persistedAs
        self.isSaved = isSaved
        self.isMirror = isMirror
    }
}

/// A service of a ``TreeReport``.
public struct ServiceReport: Hashable, Sendable {
    /// Where a service is in its life.
    public enum State: String, Hashable, Sendable {
        /// Registered, not created (created on first use, not used yet).
        case registered
        /// Created; it has no lifecycle (`start()`/`stop()`), or it has not
        /// been started yet.
        case created
        /// Its `start()` is running.
        case starting
        /// Its `start()` returned.
        case started
        /// The app stopped its services.
        case stopped
    }

    /// The registered type's name.
    public let type: String
    /// When it is created.
    public let creation: ServiceRegistry.Creation
    /// Where it is in its life.
    public let state: State

    /// Makes a service's report.
    public init(type: String, creation: ServiceRegistry.Creation, state: State) {
        self.type = type
        self.creation = creation
        self.state = state
    }
}
