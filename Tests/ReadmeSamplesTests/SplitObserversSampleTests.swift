import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Component": observers split into several computed properties.
// Adapted: the README declares `logInObserver` but calls `loginObserver`,
// and never declares `doAction`; both are fixed here.

private struct AuthComponent : Component {

    let logIn = SignalEmitter()
    let doAction = SignalEmitter()

}

// Auth+Observers.swift
extension AuthComponent {

    var observers : Void {
        logInObserver
        actionObserver
    }

    private var logInObserver : Void {
        logIn += {
            print("Log In tapped.")
        }
    }

    private var actionObserver : Void {
        doAction += {
            print("Action occured.")
        }
    }

}

@MainActor
@Suite(.serialized) struct SplitObserversSampleTests {
    @Test func everyObserverPropertyIsRegistered() {
        _ = Printed.take()
        let host = TestHost(AuthComponent())
        host.root.doAction.send()
        host.root.logIn.send()
        #expect(Printed.take() == ["Action occured.", "Log In tapped."])
    }
}
