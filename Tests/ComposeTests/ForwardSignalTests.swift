import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct ForwardSignalTests {
    struct Member: Component {
        let leave = SignalEmitter()
        var observers: Void { None }
    }
    struct Room: Component {
        let members = InstanceComponent<Member>()
        let log: EventLog
        var observers: Void {
            members.leave += { id, _ in log.record("left \(id)") }
        }
    }

    struct Lobby: Component {
        let members = InstanceComponent<Member>()
        let join = Emitter<String>()
        let log: EventLog
        var observers: Void {
            join += { _ in members.add { Member() } }
            members.leave += { id, _ in members.remove(id) }
        }
    }

    @Test func instancesAddedInsideADispatchForwardAndRemoveThemselves() throws {
        let host = TestHost(Lobby(log: EventLog()))
        host.root.join.send("ada")
        host.root.join.send("alan")
        let first = try #require(host.root.members.ids.first)
        host.root.members[first]?.leave.send()
        #expect(host.root.members.count == 1)
    }

    @Test func forwardingASignalOfEveryInstanceCarriesTheId() throws {
        let log = EventLog()
        let host = TestHost(Room(log: log))
        let id = try #require(host.root.members.add { Member() })
        host.root.members[id]?.leave.send()
        #expect(log.events == ["left \(id)"])
    }
}

