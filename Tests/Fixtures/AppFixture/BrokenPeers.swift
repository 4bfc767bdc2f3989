import ComposeApp

/// `echo`: a TCPServer on port 0 that echoes every byte; it prints
/// "echo listening on PORT" and runs until a signal stops it. The broken
/// peer tests connect and leave in every rude way they can, then check that
/// the daemon is alive and still echoes.
struct EchoScenario: Component {
    let listener = TCPServer(port: 0)
    let sessions = InstanceComponent<EchoSession>()

    var observers: Void {
        listener += { connection in
            sessions.add { EchoSession(connection: connection) }
        }
        sessions.forward(\.connection.didClose) += { id, _ in
            sessions.remove(id)
        }
        didAppear += {
            say("echo listening on \(listener.port)")
        }
    }
}

/// `chatty`: prints a line every millisecond, 2,000 lines, then shuts
/// down with status 0. Its test closes the reading end of stdout first:
/// the app must not die of SIGPIPE when its reader goes away.
struct Chatty: Component {
    let tick = LoopTimer(every: .milliseconds(1))
    let count = Counter()

    var observers: Void {
        tick += {
            count.value += 1
            say("line \(count.value)")
            if count.value == 2_000 { Application.shutdown() }
        }
    }
}

@MainActor
final class Counter {
    var value = 0
}
