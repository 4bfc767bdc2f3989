import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Component": the first AuthComponent sample. The SwiftUI view
// (Auth+View.swift) has no Linux counterpart; the type is `private` so that
// each sample file can declare its own AuthComponent.

// Auth.swift
private struct AuthComponent : Component {

    let logIn = SignalEmitter()

}

// Auth+Observers.swift
extension AuthComponent {

    var observers : Void {
        logIn += {
            print("Log In tapped.")
        }
    }

}

@MainActor
@Suite(.serialized) struct ComponentSampleTests {
    @Test func observersRunWhenTheComponentIsBound() {
        _ = Printed.take()
        let host = TestHost(AuthComponent())
        host.root.logIn.send()
        #expect(Printed.take() == ["Log In tapped."])
        #expect(host.diagnostics.isEmpty)
    }

    @Test func observersRunOnlyWhileTheComponentIsBound() {
        _ = Printed.take()
        let auth = AuthComponent()
        auth.logIn.send()
        #expect(Printed.take().isEmpty)
        #expect(auth.logIn.observerCount == 0)

        // The same value, bound: its emitter is the one sent to above, and
        // only what is sent from now on reaches the observer (binding does
        // not replay the earlier send).
        let host = TestHost(auth)
        #expect(auth.logIn.observerCount == 1)
        #expect(Printed.take().isEmpty)
        auth.logIn.send()
        #expect(Printed.take() == ["Log In tapped."])

        // Destroyed, it stops observing.
        host.tree.destroy()
        auth.logIn.send()
        #expect(Printed.take().isEmpty)
        #expect(auth.logIn.observerCount == 0)
    }
}
