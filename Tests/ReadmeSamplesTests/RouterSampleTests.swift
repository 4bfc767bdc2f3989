import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "RouterComponent". Adapted as DESIGN.md says: no SwiftUI views,
// `@ObservedObject var router` is `let router`. The README's SignUpComponent
// declares `openLogin` but AuthComponent observes `signUp.openLogIn`; the
// emitter is spelled `openLogIn` here so the sample compiles.

// LogIn.swift
private struct LogInComponent : Component {

    let openSignUp = SignalEmitter()

}

// LogIn+Observers.swift
extension LogInComponent {

    var observers : Void {
        None
    }

}

// SignUp.swift
private struct SignUpComponent : Component {

    let openLogIn = SignalEmitter()

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

    let router = Router(start: \Self.logIn)

}

// Auth+Observers.swift
extension AuthComponent {

    var observers : Void {
        logIn.openSignUp {
            router.replace(\Self.signUp)
        }

        signUp.openLogIn {
            router.replace(\Self.logIn)
        }
    }

}

@MainActor
@Suite struct RouterSampleTests {
    @Test func childSignalsReplaceTheRoute() {
        let host = TestHost(AuthComponent())
        #expect(host.root.router.path == \AuthComponent.logIn)
        #expect(host.node("logIn")?.isActive == true)
        #expect(host.node("signUp")?.isActive == false)

        host.root.logIn.openSignUp.send()
        #expect(host.root.router.path == \AuthComponent.signUp)
        #expect(host.node("logIn")?.isActive == false)
        #expect(host.node("signUp")?.isActive == true)

        host.root.signUp.openLogIn.send()
        #expect(host.root.router.path == \AuthComponent.logIn)
        #expect(host.diagnostics.isEmpty)
    }
}
