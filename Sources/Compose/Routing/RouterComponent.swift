/// A component whose child components are routes: only the ones on its
/// router's stack are active.
///
/// ```swift
/// struct AuthComponent: RouterComponent {
///     let logIn = LogInComponent()
///     let signUp = SignUpComponent()
///
///     let router = Router(start: \Self.logIn)
/// }
///
/// extension AuthComponent {
///     var observers: Void {
///         logIn.openSignUp {
///             router.replace(\Self.signUp)
///         }
///     }
/// }
/// ```
///
/// Every entry of the stack is active (as in a stacked navigation view);
/// only the top one is focused.
@MainActor
public protocol RouterComponent: Component {
    /// The router managing this component's stack of routes.
    var router: Router { get }
}
