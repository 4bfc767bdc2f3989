import Compose
import ComposeTesting
import Testing

/// Holds weak references to objects, to check they were released.
@MainActor
final class WeakProbe {
    private var references: [() -> AnyObject?] = []
    func track(_ object: AnyObject) {
        references.append { [weak object] in object }
    }
    var liveCount: Int { references.filter { $0() != nil }.count }
    var trackedCount: Int { references.count }
}

/// A component whose observer closure captures an object it made itself,
/// tracked by the probe it is given.
struct Editor: Component {
    let didSave = SignalEmitter()
    let witness: Witness
    var probe: WeakProbe?
    var observers: Void {
        let captured = Witness()
        probe?.track(captured)
        didSave += { _ = captured }
    }
}

struct Profile: RouterComponent {
    let editor: LazyComponent<Editor>
    let router = Router(start: \Self.self)
    let log: EventLog

    init(log: EventLog, witness: Witness, probe: WeakProbe? = nil) {
        self.log = log
        editor = LazyComponent(Editor(witness: witness, probe: probe))
    }

    var observers: Void {
        editor.didCreate += {
            log.record("created")
            editor.didSave += { log.record("saved") }
        }
        editor.didDestroy += { log.record("destroyed") }
    }
}

@MainActor
@Suite struct LazyComponentTests {
    @Test func aLazyComponentIsCreatedOnlyWhenItBecomesActive() {
        let log = EventLog()
        let host = TestHost(Profile(log: log, witness: Witness()))
        #expect(!host.root.editor.isCreated)
        #expect(log.events.isEmpty)
        host.root.router.push(\Profile.editor)
        #expect(host.root.editor.isCreated)
        #expect(log.events == ["created"])
        #expect(host.node("editor.component")?.isActive == true)
        #expect(host.tree.focusedNode?.path == "profile.editor.component")
    }

    @Test func observersOfTheInstanceWorkWhileItExists() {
        let log = EventLog()
        let host = TestHost(Profile(log: log, witness: Witness()))
        host.root.router.push(\Profile.editor)
        host.root.editor.didSave.send()
        #expect(log.events == ["created", "saved"])
        #expect(host.diagnostics.isEmpty)
    }

    @Test func deactivationDestroysTheInstanceAndEveryObserverOnIt() {
        let log = EventLog()
        let probe = WeakProbe()
        let host = TestHost(Profile(log: log, witness: Witness(), probe: probe))
        host.root.router.push(\Profile.editor)
        let didSave = host.root.editor.didSave
        #expect(didSave.observerCount == 2)
        #expect(probe.liveCount == 1)
        host.root.router.pop()
        #expect(log.events == ["created", "destroyed"])
        #expect(!host.root.editor.isCreated)
        #expect(didSave.observerCount == 0)
        #expect(probe.liveCount == 0)
        #expect(host.tree.focusedNode?.path == "profile")
    }

    @Test func tenThousandLazyCyclesLeaveNothingBehind() {
        let host = TestHost(Profile(log: EventLog(), witness: Witness()))
        let before = host.tree.statistics
        for _ in 0..<10_000 {
            host.root.router.push(\Profile.editor)
            host.root.router.pop()
        }
        #expect(host.tree.statistics == before)
        #expect(before.nodes == 2)
    }

    @Test func aLazyComponentIsRecreatedWithFreshObservers() {
        let log = EventLog()
        let host = TestHost(Profile(log: log, witness: Witness()))
        for _ in 0..<3 {
            host.root.router.push(\Profile.editor)
            host.root.editor.didSave.send()
            host.root.router.pop()
        }
        #expect(log.events == Array(repeating: ["created", "saved", "destroyed"], count: 3).flatMap { $0 })
    }

    @Test func lifecycleOrderThroughALazyComponent() {
        let host = TestHost(Profile(log: EventLog(), witness: Witness()))
        let events = EventLog()
        host.root.editor.didAppear += { events.record("appear container") }
        host.root.editor.didCreate += { events.record("create") }
        host.root.editor.didDestroy += { events.record("destroy") }
        host.root.editor.didDisappear += { events.record("disappear container") }
        host.root.editor.didCreate += {
            host.node("editor.component")?.didAppear += { events.record("appear editor") }
            host.node("editor.component")?.didDisappear += { events.record("disappear editor") }
        }
        host.root.router.push(\Profile.editor)
        host.root.router.pop()
        #expect(events.events == [
            "appear container", "create", "appear editor",
            "disappear editor", "disappear container", "destroy",
        ])
    }

    @Test func readingAMemberBeforeCreationIsADiagnostic() {
        let host = TestHost(Profile(log: EventLog(), witness: Witness()))
        let detached = host.root.editor.didSave
        var fired = false
        detached += { fired = true }
        host.root.router.push(\Profile.editor)
        host.root.editor.didSave.send()
        #expect(!fired)
        #expect(host.diagnostics.map(\.code) == [.containerNotCreated])
        #expect(host.root.editor.witness != nil)
    }
}

struct Settings: RouterComponent {
    let edit = DynamicComponent<Editor>()
    let open = Emitter<Witness>()
    let router = Router(start: \Self.self)
    let log: EventLog

    var observers: Void {
        open += { witness in
            edit.create { Editor(witness: witness) }
            edit.didSave += {
                log.record("saved")
                edit.destroy()
            }
            router.push(\Self.edit)
        }
        edit.didCreate += { log.record("created") }
        edit.didDestroy += { log.record("destroyed") }
    }
}

@MainActor
@Suite struct DynamicComponentTests {
    @Test func routingToADynamicComponentBeforeCreationIsADiagnosticWithNoChange() {
        let host = TestHost(Settings(log: EventLog()))
        host.root.router.push(\Settings.edit)
        #expect(host.diagnostics.map(\.code) == [.invalidRoute])
        #expect(host.diagnostics.first?.message.contains("was not created") == true)
        #expect(host.root.router.paths.map(\.label) == ["self"])
    }

    @Test func createThenRouteThenDestroyRemovesItFromTheStack() {
        let log = EventLog()
        let host = TestHost(Settings(log: log))
        host.root.open.send(Witness())
        #expect(host.root.edit.isCreated)
        #expect(host.root.router.paths.map(\.label) == ["self", "edit"])
        #expect(host.tree.focusedNode?.path == "settings.edit.component")
        host.root.edit.didSave.send()
        #expect(log.events == ["created", "saved", "destroyed"])
        #expect(host.root.router.paths.map(\.label) == ["self"])
        #expect(host.tree.focusedNode?.path == "settings")
        #expect(host.diagnostics.isEmpty)
    }

    @Test func destroyReleasesTheInstanceAndItsObservers() {
        let probe = WeakProbe()
        let host = TestHost(Settings(log: EventLog()))
        host.root.edit.create { Editor(witness: Witness(), probe: probe) }
        #expect(probe.liveCount == 1)
        host.root.edit.destroy()
        #expect(probe.trackedCount == 1)
        #expect(probe.liveCount == 0)
    }

    @Test func creatingTwiceIsADiagnosticAndKeepsTheFirst() {
        let host = TestHost(Settings(log: EventLog()))
        let first = Witness()
        host.root.edit.create { Editor(witness: first) }
        host.root.edit.create { Editor(witness: Witness()) }
        #expect(host.diagnostics.map(\.code) == [.alreadyCreated])
        #expect(host.root.edit.witness === first)
    }

    @Test func tenThousandCreateDestroyCyclesLeaveNothingBehind() {
        let host = TestHost(Settings(log: EventLog()))
        let before = host.tree.statistics
        let nodes = host.tree.liveNodeCount
        for _ in 0..<10_000 {
            host.root.open.send(Witness())
            host.root.edit.didSave.send()
        }
        #expect(host.tree.statistics == before)
        #expect(host.tree.liveNodeCount == nodes)
        #expect(host.root.edit.didCreate.observerCount == 1)
        #expect(host.tree.root.scopeObserverCount == 3)
        #expect(host.diagnostics.isEmpty)
    }
}

struct Session: Component {
    let said = Emitter<String>()
    var observers: Void { None }
}

struct Server: Component {
    let sessions = InstanceComponent<Session>()
    let log: EventLog
    var observers: Void {
        sessions.didCreate += { log.record("create \($0)") }
        sessions.didDestroy += { log.record("destroy \($0)") }
        sessions.said += { id, text in log.record("\(id): \(text)") }
    }
}

@MainActor
@Suite struct InstanceComponentTests {
    @Test func instancesAreBoundActiveAndLabelledWithTheirIds() throws {
        let log = EventLog()
        let host = TestHost(Server(log: log))
        let first = try #require(host.root.sessions.add { Session() })
        let second = try #require(host.root.sessions.add { Session() })
        #expect(first != second)
        #expect(host.root.sessions.ids == [first, second])
        #expect(host.node("sessions.\(first)")?.isActive == true)
        #expect(host.root.sessions.map(\.id) == [first, second])
        #expect(log.events == ["create \(first)", "create \(second)"])
    }

    @Test func memberAccessForwardsEveryInstancesEmitterWithItsId() throws {
        let log = EventLog()
        let host = TestHost(Server(log: log))
        let a = try #require(host.root.sessions.add { Session() })
        let b = try #require(host.root.sessions.add { Session() })
        host.root.sessions[b]?.said.send("hi")
        host.root.sessions[a]?.said.send("hello")
        #expect(log.events.suffix(2) == ["\(b): hi", "\(a): hello"])
    }

    @Test func removeDestroysTheInstanceAndItsForwarding() throws {
        let log = EventLog()
        let host = TestHost(Server(log: log))
        let id = try #require(host.root.sessions.add { Session() })
        let said = try #require(host.root.sessions[id]?.said)
        host.root.sessions.remove(id)
        said.send("ghost")
        #expect(log.events == ["create \(id)", "destroy \(id)"])
        #expect(said.observerCount == 0)
        #expect(host.root.sessions.count == 0)
        #expect(host.node("sessions.\(id)") == nil)
    }

    @Test func removingAnUnknownIdIsADiagnostic() {
        let host = TestHost(Server(log: EventLog()))
        host.root.sessions.remove(InstanceID(rawValue: 42))
        #expect(host.diagnostics.map(\.code) == [.unknownInstance])
    }

    @Test func instancesFollowTheContainersActivation() throws {
        let host = TestHost(Server(log: EventLog()), activate: false)
        let id = try #require(host.root.sessions.add { Session() })
        #expect(host.node("sessions.\(id)")?.isActive == false)
        host.tree.activate()
        #expect(host.node("sessions.\(id)")?.isActive == true)
        host.tree.deactivate()
        #expect(host.node("sessions.\(id)")?.isActive == false)
    }

    @Test func tenThousandAddRemoveCyclesLeaveNothingBehind() throws {
        let host = TestHost(Server(log: EventLog()))
        let before = host.tree.statistics
        let nodes = host.tree.liveNodeCount
        for _ in 0..<10_000 {
            let id = try #require(host.root.sessions.add { Session() })
            host.root.sessions.remove(id)
        }
        #expect(host.tree.statistics == before)
        #expect(host.tree.liveNodeCount == nodes)
        #expect(host.root.sessions.count == 0)
        #expect(host.root.sessions.said.observerCount == 1)
    }
}
