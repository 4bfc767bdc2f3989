import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "RouterComponent", centralised navigation: the emitters live on
// the router component. The SwiftUI views (RouterView, Button) are gone; a
// headless app sends the parent's emitters itself. `router.path` is compared
// with key paths, as the README's view does to colour its buttons.

// LogIn.swift
private struct LogInComponent : Component {

}

// LogIn+Observers.swift
extension LogInComponent {

    var observers : Void {
        None
    }

}

// SignUp.swift
private struct SignUpComponent : Component {

}

// SignUp+Observers.swift
extension SignUpComponent {

    var observers : Void {
        None
    }

}

// Auth.swift
private struct AuthComponent : RouterComponent {

    let logIn = LogInComponent()
    let signUp = SignUpComponent()

    let openSignUp = SignalEmitter()
    let openLogIn = SignalEmitter()

    let router = Router(start: \Self.logIn)

}

// Auth+Observers.swift
extension AuthComponent {

    var observers : Void {
        openSignUp {
            router.replace(\Self.signUp)
        }

        openLogIn {
            router.replace(\Self.logIn)
        }
    }

}

extension AuthComponent {

    /// What the README's view computes for its buttons.
    var logInHighlighted : Bool {
        router.path == \Self.logIn
    }

    var signUpHighlighted : Bool {
        router.path == \Self.signUp
    }

}

@MainActor
@Suite struct CentralisedRouterSampleTests {
    @Test func parentEmittersRouteAndPathTellsWhereWeAre() {
        let host = TestHost(AuthComponent())
        #expect(host.root.logInHighlighted)
        host.root.openSignUp.send()
        #expect(host.root.signUpHighlighted)
        #expect(!host.root.logInHighlighted)
        #expect(host.tree.currentRoute == "signUp")
        host.root.openLogIn.send()
        #expect(host.root.logInHighlighted)
    }
}
