import ComposeApp
import ComposeTesting
import Testing

// Tutorial.md (once the README), "Testing a whole app".

@MainActor
final class Beats {
    var count = 0
}

struct Heartbeat: Component {
    let minute = LoopTimer(every: .seconds(60))
    let beats = Beats()
    var observers: Void {
        minute += {
            beats.count += 1
            if beats.count == 10 { Application.shutdown(status: 0) }
        }
    }
}

@MainActor
@Test func theHeartbeatStopsAfterTenMinutes() {
    let app = TestApp(root: Heartbeat())   // or TestApp(MyApp.self)
    app.advance(by: .seconds(300))         // five virtual minutes, at once
    #expect(app.root(as: Heartbeat.self)?.beats.count == 5)
    #expect(app.exitStatus == nil)         // still running

    app.runUntilExit()                     // jumps from timer to timer
    #expect(app.exitStatus == 0)
    #expect(app.now == .seconds(600))
}

// Tutorial.md (once the README), "Testing a whole app": a TCP server and a simulated client.

struct Shouter: Component {
    let listener = TCPServer(port: 7070)
    let clients = InstanceComponent<ShoutingClient>()
    var observers: Void {
        listener += { connection in
            clients.add { ShoutingClient(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
    }
}

struct ShoutingClient: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line.uppercased()) }
    }
}

@MainActor
@Test func aClientIsAnsweredInCapitals() throws {
    let app = TestApp(root: Shouter())
    let peer = try app.connect(port: 7070)   // a simulated client
    peer.write("hello\n")
    #expect(peer.readLines() == ["HELLO"])

    app.send(.terminate)                     // the tree closes every connection
    #expect(peer.isClosedByApp)
    #expect(app.exitStatus == 0)
}

// Tutorial.md (once the README), "Testing a whole app": asserting events.

struct Tally: Component {
    let increment = SignalEmitter()
    let count = Emitter<Int>()
    let total = Beats()
    var observers: Void {
        increment += {
            total.count += 1
            count.send(total.count)
        }
    }
}

@MainActor
@Test func everyIncrementIsCounted() throws {
    let app = TestApp(root: Tally())
    let tally = try #require(app.root(as: Tally.self))
    app.run { tally.increment.send() }       // as the app's own code
    app.events.expect(
        .sent("tally.increment"),
        .sent("tally.count", 1, at: .zero)
    )
}

// Tutorial.md (once the README), "Testing a whole app": async code on the app's clock.

@MainActor
final class Said {
    var lines: [String] = []
}

struct Reminder: Component {
    let remind = SignalEmitter()
    let said = Said()
    var observers: Void {
        remind += {
            Task {
                try await Application.clock.sleep(for: .seconds(30))   // the app's time
                said.lines.append("time's up")
            }
        }
    }
}

@MainActor
@Test func theReminderWaitsThirtySeconds() async throws {
    let app = TestApp(root: Reminder())
    let reminder = try #require(app.root(as: Reminder.self))
    app.run { reminder.remind.send() }
    await app.advance(by: .seconds(29))
    #expect(reminder.said.lines.isEmpty)
    await app.advance(by: .seconds(1))
    #expect(reminder.said.lines == ["time's up"])
}
