import ComposeApp
import ComposeTesting
import Testing

// The routing tutorial (Tutorial.md, once the README's), verbatim (checked by ReadmeBlocksTests).

struct InboxComponent: PassiveComponent {
    let openMessage = Emitter<String>()
}

struct MessageComponent: PassiveComponent {
    let subject: String
    let close = SignalEmitter()
}

struct ComposerComponent: PassiveComponent {
    let send = Emitter<String>()
}

struct MailComponent: RouterComponent {
    let inbox = InboxComponent()
    let message = DynamicComponent<MessageComponent>()
    let composer = LazyComponent(ComposerComponent())
    let router = Router(start: \Self.inbox)
}

extension MailComponent {
    var observers: Void {
        inbox.openMessage += { subject in
            message.create { MessageComponent(subject: subject) }
            message.close += {
                message.destroy()   // also takes it off the router's stack
            }
            router.push(\Self.message)
        }
    }
}

@MainActor
@Test func openingAMessagePushesItAndClosingRemovesIt() throws {
    let host = TestHost(MailComponent())

    host.root.inbox.openMessage.send("Hello")
    #expect(host.root.router.path == \MailComponent.message)
    #expect(host.root.message.subject == "Hello")

    host.root.message.close.send()
    #expect(host.root.router.path == \MailComponent.inbox)
    #expect(!host.root.message.isCreated)
}

@MainActor
@Test func deepLinksOpenRoutesByTheirLabels() throws {
    let host = TestHost(MailComponent())

    try host.tree.open("composer")
    #expect(host.root.composer.isCreated)
    #expect(host.tree.currentRoute == "composer")

    #expect(throws: RouteError.self) {
        try host.tree.open("drafts")   // names "drafts" and the valid choices
    }
}

struct MemberComponent: Component {
    let name: String
    let say = Emitter<String>()
    let leave = SignalEmitter()
    var observers: Void { None }
}

struct ChatRoomComponent: Component {
    let members = InstanceComponent<MemberComponent>()
    let join = Emitter<String>()
    let transcript = Transcript()
}

extension ChatRoomComponent {
    var observers: Void {
        join += { name in
            members.add { MemberComponent(name: name) }
        }
        members.say += { id, text in
            transcript.lines.append("\(members[id]?.name ?? "?"): \(text)")
        }
        members.leave += { id, _ in
            members.remove(id)
        }
    }
}

@MainActor
final class Transcript {
    var lines: [String] = []
}

@MainActor
@Test func everyMemberIsAnInstanceWithItsOwnEmitters() throws {
    let host = TestHost(ChatRoomComponent())
    host.root.join.send("ada")
    host.root.join.send("alan")
    let ada = try #require(host.root.members.ids.first)

    host.root.members[ada]?.say.send("hi")
    host.root.members[ada]?.leave.send()

    #expect(host.root.transcript.lines == ["ada: hi"])
    #expect(host.root.members.map(\.component.name) == ["alan"])
}
