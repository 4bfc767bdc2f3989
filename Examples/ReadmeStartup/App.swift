// README, "StartupComponent": the sample, compiled as an app of its own
// (an `@main` type cannot live in a test target). Adapted as DESIGN.md says:
// `@ObservedObject var router` is `let router`. ComposeAppTests runs it and
// checks it starts and exits cleanly.
import ComposeApp

struct AuthComponent : Component {

    var observers : Void {
        didAppear += {
            print("auth appeared")
        }
    }

}

struct HomeComponent : Component {

    var observers : Void {
        None
    }

}

// App.swift
@main
struct AppComponent : RouterComponent {

    let auth = AuthComponent()
    let home = HomeComponent()

    let router = Router(start: \Self.auth)

}

extension AppComponent {

    var observers : Void {
        None
    }

}

// App+Startup.swift
extension AppComponent : StartupComponent {

    func willBindRootComponent() {
        // Setup your application in a familiar manner (e.g. add Firebase, Google Analytics, any other integrations)
        print("willBindRootComponent")
    }

    func didBindRootComponent() {
        // Root component is now bound, you may access all the underlying children components, emitters, and other properties.
        print("didBindRootComponent", auth.didAppear.observerCount)
    }

}
