import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "RoutableView": a router that starts on itself (`\Self.self`).
// The `routableBody` view has no headless counterpart: while the router
// shows `\Self.self`, the router component itself is the focused one.

private struct NextComponent : Component {

    var observers : Void {
        None
    }

}

// Onboarding.swift
private struct OnboardingComponent : RouterComponent {

    let next = NextComponent()

    let router = Router(start: \Self.self)

    let openNext = SignalEmitter()

}

// Onboarding+Observers.swift
extension OnboardingComponent {

    var observers : Void {
        openNext += {
            router.push(\Self.next)
        }
    }

}

@MainActor
@Suite struct OnboardingSampleTests {
    @Test func startsOnItselfThenPushesNext() {
        let host = TestHost(OnboardingComponent())
        #expect(host.root.router.path == \OnboardingComponent.self)
        #expect(host.tree.focusedNode === host.tree.root)
        #expect(host.node("next")?.isActive == false)

        host.root.openNext.send()
        #expect(host.root.router.paths.map(\.label) == ["self", "next"])
        #expect(host.node("next")?.isActive == true)
        #expect(host.tree.focusedNode?.path == "onboarding.next")
    }
}
