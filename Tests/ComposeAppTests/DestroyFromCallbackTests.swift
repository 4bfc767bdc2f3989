@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// libuv callbacks whose observer destroys the component that owns the
/// resource, then goes on (subscribes, sends, writes), on a live loop:
/// the TCP read path (which delivers to its emitter unretained), a timer,
/// a process signal and a child's output. Issue #28: nothing the running
/// callback still touches may be freed under it; under `make test-asan`
/// a use after free here is a failure, and the refused subscription is
/// asserted in every build.
@MainActor
@Suite(.serialized, .liveLoop) struct DestroyFromCallbackTests {
    /// An emitter no component owns.
    @MainActor final class Outside {
        let emitter = SignalEmitter()
        var late: Subscription?
        var events: [String] = []

        /// What each observer below does: records `what`, destroys its
        /// own component, then subscribes and sends.
        func destroyAndGoOn(_ remove: @escaping @MainActor () -> Void) -> @MainActor (String) -> Void {
            { [self] what in
                events.append(what)
                remove()
                late = emitter += { self.events.append("late observer") }
                emitter.send()
            }
        }
    }

    /// One resource of each kind, in an instance the observer removes.
    struct Holder: Component {
        let kind: Kind
        let outside: Outside
        let remove: @MainActor () -> Void
        let timer = LoopTimer(after: .milliseconds(1))
        let signal = ProcessSignal(.user2)
        let child: ChildProcess

        enum Kind { case timer, signal, child }

        init(kind: Kind, outside: Outside, remove: @escaping @MainActor () -> Void) {
            self.kind = kind
            self.outside = outside
            self.remove = remove
            child = ChildProcess("/bin/sh", arguments: ["-c", "echo one; echo two; echo three"], startsWithComponent: kind == .child)
        }

        var observers: Void {
            let destroyAndGoOn = outside.destroyAndGoOn(remove)
            switch kind {
            case .timer: timer += { destroyAndGoOn("timer") }
            case .signal: signal += { _ in destroyAndGoOn("signal") }
            case .child: child += { destroyAndGoOn("line \($0)") }
            }
        }
    }

    /// A server's connection, in an instance its read observer removes.
    struct ReadHolder: Component {
        let connection: TCPConnection
        let outside: Outside
        let remove: @MainActor () -> Void
        var observers: Void {
            let destroyAndGoOn = outside.destroyAndGoOn(remove)
            connection += { chunk in
                destroyAndGoOn("read \(chunk.count)")
                connection.write("after\n")
            }
        }
    }

    struct Host: Component {
        let holders = InstanceComponent<Holder>()
        let readers = InstanceComponent<ReadHolder>()
        let server = TCPServer(port: 0)
        let outside = Outside()
        var observers: Void {
            server += { connection in
                var id: InstanceID?
                id = readers.add { ReadHolder(connection: connection, outside: outside) { if let id { readers.remove(id) } } }
            }
        }
    }

    private func run(_ kind: Holder.Kind, trigger: () -> Void = {}) throws -> (Outside, ComponentTree) {
        let tree = ComponentTree(Host())
        tree.activate()
        let host = try #require(tree.root.value(as: Host.self))
        var id: InstanceID?
        id = host.holders.add { Holder(kind: kind, outside: host.outside) { if let id { host.holders.remove(id) } } }
        trigger()
        #expect(LoopDriver.run(until: { host.holders.count == 0 }), "the \(kind) observer never removed its holder")
        return (host.outside, tree)
    }

    private func expectRefused(_ outside: Outside, _ tree: ComponentTree, first: String) {
        #expect(outside.events.first == first)
        // The send after the destruction reached nobody: the subscription
        // made in the destroyed scope was refused, not attached.
        #expect(!outside.events.contains("late observer"))
        #expect(outside.late?.isActive == false)
        #expect(tree.context.diagnostics.lastValue?.code == .observationInDestroyedScope)
        tree.destroy()
        LoopDriver.settle()
    }

    @Test func aTimerWhoseObserverDestroysItsComponent() throws {
        let (outside, tree) = try run(.timer)
        expectRefused(outside, tree, first: "timer")
    }

    @Test func aSignalWhoseObserverDestroysItsComponent() throws {
        let (outside, tree) = try run(.signal) {
            LoopDriver.settle()
            kill(getpid(), SIGUSR2)
        }
        expectRefused(outside, tree, first: "signal")
    }

    @Test func aChildsOutputWhoseObserverDestroysItsComponent() throws {
        let (outside, tree) = try run(.child)
        // The first line destroyed the holder, whose child's later lines
        // go nowhere.
        expectRefused(outside, tree, first: "line one")
        #expect(outside.events.filter { $0.hasPrefix("line") } == ["line one"])
    }

    @Test func aTCPReadWhoseObserverDestroysItsComponent() throws {
        let tree = ComponentTree(Host())
        tree.activate()
        let host = try #require(tree.root.value(as: Host.self))
        let port = host.server.port
        let probe = ClientProbe(port: port)
        #expect(LoopDriver.run(until: { host.readers.count == 1 && probe.connection != nil }))
        probe.connection?.write("hello")
        #expect(LoopDriver.run(until: { host.readers.count == 0 }))
        expectRefused(host.outside, tree, first: "read 5")
        // The holder's connection closed with it; the write after the
        // destruction went nowhere and crashed nothing.
        #expect(LoopDriver.run(until: { probe.closed != nil || probe.reachedEnd }))
    }
}
