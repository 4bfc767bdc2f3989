import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Preinstalled Lifecycle Emitters". Headless: "appears" means
// "becomes part of the active tree".

private struct AuthComponent : Component {

    let logIn = SignalEmitter()

}

// Auth+Observers.swift
extension AuthComponent {

    var observers : Void {
        didAppear += {
            print("Component appeared.")
        }

        didDisappear += {
            print("Component disappeared.")
        }

        logIn += {
            print("Log In tapped.")
        }
    }

}

// Tutorial.md (once the README), "RouterComponent": components with no observers use `None`, and
// a parent subscribes with the call syntax.

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

private struct Screens : Component {

    let logIn = LogInComponent()

}

extension Screens {

    var observers : Void {
        logIn.openSignUp {
            print("Sign up requested.")
        }
    }

}

@MainActor
@Suite(.serialized) struct LifecycleSampleTests {
    @Test func lifecycleObserversFollowTheActiveTree() {
        _ = Printed.take()
        let host = TestHost(AuthComponent(), activate: false)
        #expect(Printed.take().isEmpty)
        host.tree.activate()
        host.root.logIn.send()
        host.tree.deactivate()
        #expect(Printed.take() == ["Component appeared.", "Log In tapped.", "Component disappeared."])
    }

    @Test func callSyntaxSubscribesToAChildsEmitter() {
        _ = Printed.take()
        let host = TestHost(Screens())
        host.root.logIn.openSignUp.send()
        #expect(Printed.take() == ["Sign up requested."])
        #expect(host.diagnostics.isEmpty)
    }
}
