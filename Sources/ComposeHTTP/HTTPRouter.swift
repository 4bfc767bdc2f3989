/// The routes of an ``HTTPServer``, to hand down to child components.
///
/// The server itself is a loop resource of the component that stores it
/// (it listens while that component is active, and closes with it);
/// stored in a child, it would be the child's too. A child that declares
/// routes stores the server's router instead, and its routes go with it:
///
/// ```swift
/// struct AdminRoutes: Component {
///     let router: HTTPRouter
///     var observers: Void {
///         router.route(.get, "/admin/status") += { exchange in
///             exchange.respond(.ok, text: "fine\n")
///         }
///     }
/// }
///
/// struct API: Component {
///     let server = HTTPServer(port: 8080)
///     let admin = DynamicComponent<AdminRoutes>()
///     var observers: Void {
///         didAppear += { admin.create { AdminRoutes(router: server.router) } }
///     }
/// }
/// ```
@MainActor
public struct HTTPRouter {
    let routes: HTTPRoutes

    /// The exchanges of requests for `method` whose path matches
    /// `pattern` (see ``HTTPServer/route(_:_:)``).
    public func route(_ method: HTTPRequest.Method, _ pattern: String) -> Emitter<HTTPExchange> {
        routes.add(method, pattern)
    }
}
