import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// `workers`: run with `--workers N`. Each worker listens on the port
/// COMPOSE_PORT (which the workers share), greets each connection with
/// "worker pid P" (its process ID, so a client knows which worker it got)
/// and then echoes it. It prints "worker I listening on PORT" when it
/// appears, and "worker I reloaded" at SIGHUP. The worker whose index is
/// COMPOSE_FAILING_WORKER exits 3 as soon as it appears, every time (the
/// restart limit's test). FixtureApp.configuration reads the backoff and
/// the restart limit from the environment.
struct WorkersScenario: Component {
    let listener = TCPServer(host: "127.0.0.1", port: environment("COMPOSE_PORT").flatMap { UInt16($0) } ?? 0)
    let sessions = InstanceComponent<GreetingEchoSession>()
    let hangup = ProcessSignal(.hangup)

    var observers: Void {
        listener += { connection in
            sessions.add { GreetingEchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
        listener.errors += { error in
            say("listen failed: \(error)")
            Application.shutdown(status: 1)
        }
        hangup += { _ in
            say("worker \(Application.workerIndex ?? -1) reloaded")
        }
        didAppear += {
            let index = Application.workerIndex ?? -1
            if let failing = environment("COMPOSE_FAILING_WORKER").flatMap({ Int($0) }), failing == index {
                say("worker \(index) fails")
                Application.shutdown(status: 3)
                return
            }
            say("worker \(index) listening on \(listener.port)")
        }
    }
}

/// One connection of the workers scenario: says which process serves it,
/// then echoes.
struct GreetingEchoSession: Component {
    let connection: TCPConnection

    var observers: Void {
        connection += { bytes in
            connection.write(bytes)
        }
        didAppear += {
            connection.writeLine("worker pid \(getpid())")
        }
    }
}
