import ComposeApp
import ComposeTesting
import Testing

// README, "Component": the first AuthComponent sample. The SwiftUI view
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

    @Test func anUnboundComponentsObserversNeverRun() {
        _ = Printed.take()
        let loose = AuthComponent()
        loose.logIn.send()
        #expect(Printed.take().isEmpty)
    }
}
