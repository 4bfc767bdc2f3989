import ComposeApp

/// Counts its minutes on a one-minute timer.
struct Heartbeat: Component {
    let minute = LoopTimer(every: .seconds(60))
    let beats = Count()
    var observers: Void {
        minute += { beats.value += 1 }
    }
}

@MainActor
final class Count {
    var value = 0
}

/// What a `Worker` app saw, in order.
@MainActor
final class Journal {
    var entries: [String] = []
}

/// A small daemon: it says what happens to it, shuts itself down after
/// `workMinutes` of work with status `status`, and reloads on SIGHUP.
struct Worker: Component {
    let journal: Journal
    let workMinutes: Int
    let status: Int32
    let minute = LoopTimer(every: .seconds(60))
    let reload = ProcessSignal(.hangup)
    let done = Count()

    var observers: Void {
        didAppear += { journal.entries.append("appear") }
        didDisappear += { journal.entries.append("disappear") }
        Application.willShutDown += { journal.entries.append("willShutDown") }
        reload += { _ in journal.entries.append("reload") }
        minute += {
            done.value += 1
            if done.value == workMinutes {
                journal.entries.append("done")
                Application.shutdown(status: status)
            }
        }
    }
}

/// A `StartupComponent` app, as `@main` would run it.
struct StartupProbe: Component {
    let journal = Journal()
    var observers: Void {
        didAppear += { journal.entries.append("appear") }
        didDisappear += { journal.entries.append("disappear") }
        Application.willShutDown += { journal.entries.append("willShutDown") }
    }
}

extension StartupProbe: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(shutdownDeadline: .seconds(2))
    }

    func willBindRootComponent() {
        journal.entries.append("willBind")
    }

    func didBindRootComponent() {
        journal.entries.append("didBind")
        // Before the loop runs: honoured once the root is active.
        Application.shutdown(status: 4)
    }
}

/// Keeps a timer running that no component owns: nothing closes it at
/// shutdown, so only the deadline ends the app.
struct Stubborn: Component {
    let stray = Stray()
    var observers: Void {
        didAppear += {
            let timer = LoopTimer(every: .seconds(1))
            timer.start()
            stray.timer = timer
        }
    }
}

@MainActor
final class Stray {
    var timer: LoopTimer?
}

/// Starts main-actor tasks from an observer.
struct Spawner: Component {
    let tick = LoopTimer(after: .seconds(1))
    let journal = Journal()
    var observers: Void {
        tick += {
            journal.entries.append("tick")
            Task { @MainActor in
                journal.entries.append("task")
                await Task.yield()
                journal.entries.append("task resumed")
                Application.shutdown(status: 9)
            }
        }
    }
}

/// Answers every line in capitals; `/quit` closes; says goodbye at
/// shutdown.
struct ShoutServer: Component {
    let listener = TCPServer(port: 7070)
    let clients = InstanceComponent<ShoutClient>()
    let errors = Journal()

    var observers: Void {
        listener += { connection in
            clients.add { ShoutClient(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
        clients.forward(\.connection.errors) += { _, error in
            errors.entries.append("\(error.kind)")
        }
        Application.willShutDown += {
            for id in clients.ids { clients[id]?.connection.writeLine("Goodbye!") }
        }
    }
}

struct ShoutClient: Component {
    let connection: TCPConnection
    var observers: Void {
        didAppear += { connection.writeLine("Hello \(connection.remoteAddress)") }
        connection.lines += { line in
            if line == "/quit" {
                connection.writeLine("Bye!")
                connection.close()
            } else {
                connection.writeLine(line.uppercased())
            }
        }
    }
}

/// Two servers on one port.
struct PortClash: Component {
    let first = TCPServer(port: 9000)
    let second = TCPServer(port: 9000)
    let errors = Journal()
    var observers: Void {
        second.errors += { errors.entries.append($0.description) }
    }
}
