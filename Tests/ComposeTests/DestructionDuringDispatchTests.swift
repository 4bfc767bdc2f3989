@_spi(Testing) import Compose
import ComposeTesting
import Testing

/// Observers that destroy their own component, an ancestor or the whole
/// tree, then go on: send, subscribe, cancel (issue #28, defect 1). Every
/// node a running dispatch still reads (the observer's scope, its parents)
/// stays valid until the outermost dispatch ends, and a subscription made
/// in a destroyed scope is refused with a diagnostic.
///
/// On the code before the fix these read and wrote freed nodes: they fail
/// under `make test-asan` (heap-use-after-free in
/// `ObservationContext.currentScope` and `ComponentNode.retain`) and their
/// assertions on the refused subscription fail in any build.
@MainActor
@Suite struct DestructionDuringDispatchTests {
    /// An emitter no component owns, so no ancestor rule applies to it.
    final class Source {
        let emitter = SignalEmitter()
        let values = Emitter<Int>()
    }

    /// What an observer does after it destroyed something.
    enum Then: CaseIterable, Sendable {
        case subscribe, send, cancel, subscribeOnce, readScope
    }

    /// What the observer destroys.
    enum Target: CaseIterable, Sendable {
        case itself, parent, grandparent, wholeTree
    }

    final class Hook {
        var destroy: @MainActor () -> Void = {}
        var then: @MainActor () -> Void = {}
    }

    struct Session: Component {
        let closed = SignalEmitter()
        let hook: Hook
        var observers: Void {
            closed += {
                hook.destroy()
                hook.then()
            }
        }
    }

    struct Room: Component {
        let sessions = InstanceComponent<Session>()
        var observers: Void { None }
    }

    struct Lobby: Component {
        let room = Room()
        var observers: Void { None }
    }

    struct Server: Component {
        let lobby = Lobby()
        let rooms = InstanceComponent<Lobby>()
        var observers: Void { None }
    }

    /// The chat's "remove the session on close", then a subscription: the
    /// exact shape of the review's reproducer.
    @Test func anInstanceThatRemovesItselfAndThenSubscribesIsRefusedNotAttached() throws {
        let host = TestHost(Server())
        let source = Source()
        let hook = Hook()
        let sessions = host.root.lobby.room.sessions
        let id = try #require(sessions.add { Session(hook: hook) })
        let session = try #require(sessions[id])
        var late: Subscription?
        var calls = 0
        hook.destroy = { sessions.remove(id) }
        hook.then = {
            late = source.emitter += { calls += 1 }
        }
        session.closed.send()

        let subscription = try #require(late)
        #expect(!subscription.isActive)
        #expect(source.emitter.observerCount == 0)
        source.emitter.send()
        #expect(calls == 0)
        let refused = host.diagnostics.filter { $0.code == .observationInDestroyedScope }
        #expect(refused.count == 1)
        // The instance was taken out of its container before it was
        // destroyed: the message names its type and label.
        #expect(refused.first?.message.contains("Session '1'") == true)
        #expect(sessions.count == 0)
    }

    @Test(arguments: Target.allCases, Then.allCases)
    func anObserverThatDestroysAComponentAndGoesOnTouchesNothingFreed(target: Target, then: Then) throws {
        let host = TestHost(Server())
        let source = Source()
        let hook = Hook()
        // A session two containers deep: server.rooms.1.room.sessions.1.
        let roomID = try #require(host.root.rooms.add { Lobby() })
        let lobby = try #require(host.root.rooms[roomID])
        let sessions = lobby.room.sessions
        let id = try #require(sessions.add { Session(hook: hook) })
        let session = try #require(sessions[id])
        let sessionNode = try #require(host.node("server.rooms.1.room.sessions.1"))
        let tree = host.tree
        hook.destroy = {
            switch target {
            case .itself: sessions.remove(id)
            case .parent: host.node("server.rooms.1.room")?.destroyForTesting()
            case .grandparent: host.root.rooms.remove(roomID)
            case .wholeTree: tree.destroy()
            }
        }
        var received: [Int] = []
        let earlier = source.values += { received.append($0) }
        var late: Subscription?
        var scopeSeen: ComponentNode?
        hook.then = {
            switch then {
            case .subscribe: late = source.emitter += { received.append(-1) }
            case .subscribeOnce: late = source.emitter !+= { received.append(-1) }
            case .send:
                source.values.send(7)
                session.closed.send()
            case .cancel: earlier.cancel()
            case .readScope: scopeSeen = sessionNode.parent
            }
        }
        session.closed.send()

        // The destroyed session's observers are gone.
        #expect(sessionNode.isDestroyed)
        #expect(session.closed.observerCount == 0)
        switch then {
        case .subscribe, .subscribeOnce:
            #expect(late?.isActive == false)
            source.emitter.send()
            #expect(received.isEmpty)
            #expect(host.diagnostics.contains { $0.code == .observationInDestroyedScope })
        case .send:
            // The send reached the outside observer; the session's own
            // observer was cancelled by its destruction and not called again.
            #expect(received == [7])
        case .cancel:
            #expect(!earlier.isActive)
            source.values.send(1)
            #expect(received.isEmpty)
        case .readScope:
            // Detached or not, reading it touched a live node.
            _ = scopeSeen?.label
        }
    }

    /// Nodes destroyed during a dispatch are kept until the outermost
    /// dispatch ends, and released then (no leak).
    @Test func aNodeDestroyedDuringADispatchIsReleasedWhenTheOutermostDispatchEnds() throws {
        let host = TestHost(Server())
        let hook = Hook()
        let sessions = host.root.lobby.room.sessions
        let id = try #require(sessions.add { Session(hook: hook) })
        let session = try #require(sessions[id])
        weak let weakNode = host.node("server.lobby.room.sessions.1")
        var aliveDuringDispatch = false
        hook.destroy = { sessions.remove(id) }
        hook.then = { aliveDuringDispatch = weakNode != nil }
        session.closed.send()
        #expect(aliveDuringDispatch)
        #expect(weakNode == nil)
    }

    /// Defect 3: compacting a scope's tokens released a token holding the
    /// last reference to an emitter, whose observer's captured object
    /// subscribed from its deinit, re-entering the compaction in progress
    /// (a double free with `@exclusivity(unchecked)`).
    @Test func aDeinitThatSubscribesWhileAScopeCompactsItsTokensJoinsTheScope() throws {
        @MainActor final class SubscribesOnDeinit {
            let target: SignalEmitter
            let joined: @MainActor (Subscription) -> Void
            init(target: SignalEmitter, joined: @escaping @MainActor (Subscription) -> Void) {
                self.target = target
                self.joined = joined
            }
            isolated deinit {
                // Enough to make the scope's token list grow (reallocate)
                // while the compaction that released this object runs.
                for _ in 0..<100 { joined(target += {}) }
            }
        }
        struct Scope: Component {
            let run = SignalEmitter()
            let target = SignalEmitter()
            let hook: Hook
            var observers: Void {
                run += { hook.then() }
            }
        }
        let hook = Hook()
        let host = TestHost(Scope(hook: hook))
        var fromDeinit: Subscription?
        // An emitter that, in the end, only a token keeps; its one live
        // observer (registered here, in no scope) holds the object whose
        // deinit subscribes.
        var temporary: SignalEmitter? = SignalEmitter()
        do {
            let object = SubscribesOnDeinit(target: host.root.target) { fromDeinit = $0 }
            temporary! += { _ = object }
        }
        hook.then = {
            // Registered in the scope, then ended: its token (which keeps
            // `temporary`) waits in the scope's list for compaction.
            do {
                let ended = temporary! += {}
                ended.cancel()
            }
            temporary = nil
            // Enough observers to make the scope compact its tokens.
            for _ in 0..<40 { host.root.target += {} }
        }
        host.root.run.send()
        let subscription = try #require(fromDeinit)
        #expect(subscription.isActive)
        #expect(host.root.target.observerCount == 140)
        #expect(host.tree.root.scopeObserverCount == 141)
        host.tree.destroy()
        #expect(!subscription.isActive)
    }
}
