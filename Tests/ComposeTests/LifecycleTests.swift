import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct LifecycleTests {
    @Test func activationGoesParentsFirstAndDeactivationChildrenFirst() {
        let host = TestHost(Root(log: BindLog()), activate: false)
        let log = recordLifecycle(of: host.tree)
        host.tree.activate()
        #expect(log.events == [
            "appear root", "appear pair", "appear left", "appear right", "appear bare",
            "appear extra", "focus root",
        ])
        log.clear()
        host.tree.deactivate()
        #expect(log.events == [
            "unfocus root", "disappear extra", "disappear bare", "disappear right",
            "disappear left", "disappear pair", "disappear root",
        ])
    }

    @Test func activatingTwiceSendsNothingTheSecondTime() {
        let host = TestHost(Root(log: BindLog()))
        let log = recordLifecycle(of: host.tree)
        host.tree.activate()
        #expect(log.events.isEmpty)
        #expect(host.tree.root.isActive)
        #expect(host.tree.allNodes.allSatisfy { $0.isActive })
    }

    @Test func theRootIsFocusedWhileActiveInATreeWithoutRouters() {
        let host = TestHost(Root(log: BindLog()))
        #expect(host.tree.focusedNode === host.tree.root)
        #expect(host.tree.root.isFocused)
        host.tree.deactivate()
        #expect(host.tree.focusedNode == nil)
    }

    @Test func theReadmeLifecycleObserversFireOnAppearAndDisappear() {
        struct AuthComponent: Component {
            let logIn = SignalEmitter()
            let log: EventLog
            var observers: Void {
                didAppear += { log.record("Component appeared.") }
                didDisappear += { log.record("Component disappeared.") }
                logIn += { log.record("Log In tapped.") }
            }
        }
        let log = EventLog()
        let host = TestHost(AuthComponent(log: log))
        host.root.logIn.send()
        host.tree.deactivate()
        #expect(log.events == ["Component appeared.", "Log In tapped.", "Component disappeared."])
    }

    @Test func anObserverOfDidAppearMayDeactivateTheTree() {
        let host = TestHost(Root(log: BindLog()), activate: false)
        let log = recordLifecycle(of: host.tree)
        host.root.pair.didAppear += { host.tree.deactivate() }
        host.tree.activate()
        #expect(!host.tree.root.isActive)
        #expect(host.tree.allNodes.allSatisfy { !$0.isActive })
        #expect(log.events.first == "appear root")
        #expect(log.events.last == "disappear root")
        #expect(!log.events.contains("appear left"))
    }
}
