/// A service of the app, in a component: resolved from the app's
/// ``ServiceRegistry`` each time it is read.
///
/// ```swift
/// struct SignUp: Component {
///     @Service var mail: MailService?
///     let submitted = Emitter<String>()
///     var observers: Void {
///         submitted += { address in mail?.send(Welcome(to: address)) }
///     }
/// }
/// ```
///
/// The property is optional because a service may be missing: when no one
/// registered the type, it reads `nil` and the app gets a
/// ``Diagnostic/Code/missingService`` diagnostic (once per type) naming
/// the type and how to register it, with the component's path. Nothing
/// crashes. The services of the app the component is bound in are used;
/// before binding (in `init()`), those of the app whose code runs
/// (``AppContext/current``).
///
/// A service created on first use is created by the first read (see
/// ``ServiceRegistry/Creation``).
@propertyWrapper
@MainActor
public final class Service<Value>: ComponentAttachment {
    private weak var context: AppContext?
    private var path: String?

    /// A service of type `Value`, the type of the property without its `?`.
    public init() {}

    /// The app's instance, or `nil` (with a diagnostic) when no one
    /// registered `Value` or when the component is used outside an app.
    public var wrappedValue: Value? {
        guard let context = context ?? AppContext.current else {
            Diagnostics.report(Diagnostic(.noRunningApp, "The service \(ServiceRegistry.name(of: Value.self)) was read outside a running app, in a component that is not bound: it is nil. Read it from an app's code (observers, tasks they start), or from a test through TestApp.", path: path))
            return nil
        }
        return context.services.resolve(Value.self, for: path)
    }

    public func componentDidBind(_ node: ComponentNode) {
        context = node.context
        path = node.path
    }
}
