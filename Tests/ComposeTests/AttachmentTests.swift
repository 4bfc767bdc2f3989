import Compose
import ComposeTesting
import Testing

/// Records the lifecycle calls an attachment receives.
@MainActor
final class RecordingAttachment: ComponentAttachment {
    let log: EventLog
    let name: String
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func componentDidBind(_ node: ComponentNode) { log.record("\(name) bound at \(node.path)") }
    func componentDidAppear() { log.record("\(name) appear") }
    func componentDidDisappear() { log.record("\(name) disappear") }
    func componentWillBeDestroyed() { log.record("\(name) destroyed") }
}

struct Attached: Component {
    let resource: RecordingAttachment
    var observers: Void { None }
}

struct AttachedParent: Component {
    let child: Attached
    let resource: RecordingAttachment
    let log: EventLog
    init(log: EventLog) {
        self.log = log
        child = Attached(resource: RecordingAttachment("child", log: log))
        resource = RecordingAttachment("parent", log: log)
    }
    var observers: Void {
        didAppear += { log.record("parent didAppear") }
        child.didDisappear += { log.record("child didDisappear") }
    }
}

@MainActor
@Suite struct AttachmentTests {
    @Test func attachmentsFollowTheirComponentsLifecycle() {
        let log = EventLog()
        let host = TestHost(AttachedParent(log: log))
        host.tree.destroy()
        #expect(log.events == [
            "child bound at attachedParent.child",
            "parent bound at attachedParent",
            "parent appear", "parent didAppear", "child appear",
            "child didDisappear", "child disappear", "parent disappear",
            "child destroyed", "parent destroyed",
        ])
    }

    @Test func attachmentsOfARoutedChildRunOnlyWhileItIsOnTheStack() {
        struct Routed: RouterComponent {
            let a: Attached
            let b: Attached
            let router = Router(start: \Self.a)
            var observers: Void { None }
        }
        let log = EventLog()
        let host = TestHost(Routed(a: Attached(resource: RecordingAttachment("a", log: log)), b: Attached(resource: RecordingAttachment("b", log: log))))
        log.clear()
        host.root.router.replace(\Routed.b)
        #expect(log.events == ["a disappear", "b appear"])
    }
}
