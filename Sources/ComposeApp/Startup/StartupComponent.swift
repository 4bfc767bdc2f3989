import Compose
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The root component of an app: `@main` on it runs the app on the event
/// loop.
///
/// ```swift
/// @main
/// struct AppComponent: RouterComponent {
///     let auth = AuthComponent()
///     let home = HomeComponent()
///     let router = Router(start: \Self.auth)
/// }
///
/// extension AppComponent: StartupComponent {
///     func willBindRootComponent() {
///         // Set up logging and integrations.
///     }
///
///     func didBindRootComponent() {
///         // The tree is bound: every observer is registered.
///     }
/// }
/// ```
///
/// Services the app's components use are registered in
/// ``registerServices(in:)``:
///
/// ```swift
/// extension AppComponent: StartupComponent {
///     static func registerServices(in services: ServiceRegistry) {
///         services.register(MailService.self, creation: .atStart) { SMTPMail() }
///     }
/// }
/// ```
///
/// `main()` registers the services, starts those that start with the app
/// (see `ServiceRegistry`; if they cannot start, it stops those that did
/// and exits with `ServiceRegistry.startFailureExitStatus`), creates the
/// component with `init()`, calls
/// ``willBindRootComponent()``, binds the tree, calls
/// ``didBindRootComponent()``, activates the root (`didAppear`, parents
/// first, start routes included) and runs the loop until nothing keeps it
/// running or the app shuts down (``Application/shutdown(status:)``,
/// `SIGINT`, `SIGTERM`). Shutdown first drains (see
/// `ShutdownCoordinator`): the app's listeners close, the connections
/// they accepted are told (``TCPConnection/willDrain``) and have up to
/// ``StartupConfiguration/drainTimeout`` to close; then it deactivates the
/// tree (children first), destroys it, stops the services in reverse
/// order, lets handles close, and exits.
@MainActor
public protocol StartupComponent: Component {
    /// Creates the root component.
    init()
    /// Registers the app's services, before anything else runs (see
    /// `ServiceRegistry`). A `TestApp` registers its overrides after.
    static func registerServices(in services: ServiceRegistry)
    /// Called before the tree is bound.
    func willBindRootComponent()
    /// Called after the tree is bound, before it is activated.
    func didBindRootComponent()
    /// How the app starts and stops.
    static var configuration: StartupConfiguration { get }
}

extension StartupComponent {
    public static func registerServices(in services: ServiceRegistry) {}
    public func willBindRootComponent() {}
    public func didBindRootComponent() {}
    public static var configuration: StartupConfiguration { StartupConfiguration() }

    /// Runs the app; `@main` calls it. Never returns.
    public static func main() {
        makeRuntime().run(Self.self)
    }

    /// Runs the app as ``main()`` does, with `arguments` (without a
    /// program name) for its configuration instead of the process's
    /// command line: for a tool that runs an app as one of its commands
    /// (`compose top 4242` runs its app with `--socket ...`). Never
    /// returns.
    package static func run(arguments: [String]) -> Never {
        makeRuntime().run(Self.self, arguments: arguments)
    }

    /// The runtime of this app, or exit 1 when its loop cannot be made.
    private static func makeRuntime() -> Runtime {
        do {
            return try Runtime(name: ComponentTree.defaultLabel(for: Self.self), configuration: configuration)
        } catch {
            Diagnostics.logger.critical("Cannot start the app: \(error)")
            exit(1)
        }
    }
}

extension StartupComponent {
    /// Creates the root and binds its tree in `context`, as `main()` does
    /// and a `TestApp` does too: `init()`, ``willBindRootComponent()``,
    /// binding, ``didBindRootComponent()``. Activation is the caller's.
    package static func bindRoot(in context: AppContext) -> ComponentTree {
        let app = Self()
        app.willBindRootComponent()
        let tree = ComponentTree(app, context: context)
        tree.withRootScope { app.didBindRootComponent() }
        return tree
    }
}
