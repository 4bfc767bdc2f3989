import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct ComponentBindingTests {
    @Test func bindingRunsChildrenObserversBeforeTheParentsExactlyOnce() {
        let log = BindLog()
        let host = TestHost(Root(log: log))
        #expect(log.entries == [
            "observers left", "observers right", "observers pair",
            "observers extra", "observers root",
        ])
        host.tree.deactivate()
        host.tree.activate()
        #expect(log.entries.count == 5)
    }

    @Test func nodesKnowTheirLabelsPathsParentsAndChildren() throws {
        let host = TestHost(Root(log: BindLog()))
        #expect(host.tree.root.label == "root")
        #expect(host.tree.root.children.map(\.label) == ["pair", "extra"])
        let left = try #require(host.node("pair.left"))
        #expect(left.path == "root.pair.left")
        #expect(left.parent === host.node("pair"))
        #expect(left.componentType is Leaf.Type)
        #expect(host.node("root.pair.bare")?.componentType is Bare.Type)
        #expect(host.node("pair.nothing") == nil)
        #expect(host.tree.liveNodeCount == 6)
    }

    @Test func rootLabelIsDerivedFromTheTypeName() {
        struct AppComponent: Component { var observers: Void { None } }
        #expect(ComponentTree(AppComponent()).root.label == "app")
        #expect(ComponentTree(AppComponent(), label: "main").root.label == "main")
        struct PagerComponent<Page>: Component { var observers: Void { None } }
        #expect(ComponentTree(PagerComponent<Int>()).root.label == "pager")
    }

    @Test func copiesOfAComponentFindTheSameNode() throws {
        let host = TestHost(Root(log: BindLog()))
        let copy = host.root.pair.left
        let anotherCopy = copy
        let node = try #require(copy.node)
        #expect(node === anotherCopy.node)
        #expect(node === host.node("pair.left"))
    }

    @Test func sameTypeSiblingsHaveDistinctNodes() throws {
        let host = TestHost(Root(log: BindLog()))
        let left = try #require(host.root.pair.left.node)
        let right = try #require(host.root.pair.right.node)
        let extra = try #require(host.root.extra.node)
        #expect(left !== right)
        #expect(left.path == "root.pair.left")
        #expect(right.path == "root.pair.right")
        #expect(extra.path == "root.extra")
    }

    @Test func siblingsOfTheSameTypeHaveSeparateLifecycleEmitters() {
        let host = TestHost(Root(log: BindLog()), activate: false)
        var appeared: [String] = []
        host.root.pair.left.didAppear += { appeared.append("left") }
        host.root.pair.right.didAppear += { appeared.append("right") }
        host.tree.activate()
        #expect(appeared == ["left", "right"])
    }

    @Test func aChildWithoutStoredReferencesIsFoundFromItsParentsScope() {
        struct Holder: Component {
            let bare = Bare()
            let log: BindLog
            var observers: Void {
                bare.didAppear += { log.entries.append("bare appeared") }
            }
        }
        let log = BindLog()
        let host = TestHost(Holder(log: log))
        #expect(log.entries == ["bare appeared"])
        #expect(host.diagnostics.isEmpty)
    }

    @Test func twoSiblingsWithoutStoredReferencesAreReportedAsAmbiguous() {
        struct Twins: Component {
            let first = Bare()
            let second = Bare()
            var observers: Void {
                first.didAppear += {}
            }
        }
        let host = TestHost(Twins())
        #expect(host.diagnostics.map(\.code) == [.ambiguousIdentity])
        #expect(host.diagnostics.first?.message.contains("twins.first, twins.second") == true)
    }

    @Test func anUnboundComponentHasNoNodeAndSaysSo() {
        let reported = Diagnostics.collectUnattached {
            let loose = Leaf(name: "loose", log: BindLog())
            #expect(loose.node == nil)
        }
        #expect(reported.map(\.code) == [.unboundComponent])
        #expect(reported.first?.message.contains("Leaf") == true)
    }

    @Test func aComponentObservesItsOwnAndItsDescendantsEmitters() {
        struct Parent: Component {
            let child = Leaf(name: "child", log: BindLog())
            let own = SignalEmitter()
            let log: BindLog
            var observers: Void {
                own += { log.entries.append("own") }
                child.ping += { log.entries.append("child ping") }
            }
        }
        let log = BindLog()
        let host = TestHost(Parent(log: log))
        host.root.own.send()
        host.root.child.ping.send()
        #expect(log.entries == ["own", "child ping"])
        #expect(host.diagnostics.isEmpty)
    }

    @Test func observingAnAncestorsEmitterIsADiagnosticAndHasNoEffect() {
        struct Child: Component {
            let parentSignal: SignalEmitter
            let log: BindLog
            var observers: Void {
                parentSignal += { log.entries.append("child saw parent") }
            }
        }
        struct Parent: Component {
            let signal: SignalEmitter
            let child: Child
            init(log: BindLog) {
                let signal = SignalEmitter()
                self.signal = signal
                child = Child(parentSignal: signal, log: log)
            }
            var observers: Void { None }
        }
        let log = BindLog()
        let host = TestHost(Parent(log: log))
        host.root.signal.send()
        #expect(log.entries.isEmpty)
        #expect(host.root.signal.observerCount == 0)
        #expect(host.diagnostics.map(\.code) == [.ancestorObservation])
        #expect(host.diagnostics.first?.path == "parent.child")
        #expect(host.diagnostics.first?.message.contains("parent.child observes an emitter of its ancestor parent") == true)
    }
}
