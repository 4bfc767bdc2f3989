import Compose
import ComposeTesting

/// A three-level tree for routing tests:
///
///     app (router: auth | home)
///     ├── auth (router: logIn | signUp)
///     │   ├── logIn
///     │   └── signUp
///     └── home (router: \Self.self | feed | settings)
///         ├── feed (plain, with a child `post`)
///         │   └── post
///         └── settings
struct Screen: Component {
    let open = SignalEmitter()
    var observers: Void { None }
}

struct AuthFlow: RouterComponent {
    let logIn = Screen()
    let signUp = Screen()
    let router = Router(start: \Self.logIn)
    var observers: Void { None }
}

struct Feed: Component {
    let post = Screen()
    var observers: Void { None }
}

struct HomeFlow: RouterComponent {
    let feed = Feed()
    let settings = Screen()
    let router = Router(start: \Self.self)
    var observers: Void { None }
}

struct AppFlow: RouterComponent {
    let auth = AuthFlow()
    let home = HomeFlow()
    let router = Router(start: \Self.auth)
    var observers: Void { None }
}

/// Records every lifecycle event of every node of `tree` as "appear x",
/// "disappear x", "focus x", "unfocus x".
@MainActor
func recordLifecycle(of tree: ComponentTree) -> EventLog {
    let log = EventLog()
    for node in tree.allNodes {
        let name = node.label
        node.didAppear += { log.record("appear \(name)") }
        node.didDisappear += { log.record("disappear \(name)") }
        node.didEnterFocus += { log.record("focus \(name)") }
        node.didLeaveFocus += { log.record("unfocus \(name)") }
    }
    return log
}
