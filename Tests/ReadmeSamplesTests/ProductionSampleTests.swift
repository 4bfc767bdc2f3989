import ComposeApp
import Testing

// Tutorial.md (once the README), "Running in production": socket activation and the workers mode.

// Socket activation: each server says which inherited socket is its own.
private struct FrontDoor: Component {
    let web = TCPServer(host: "0.0.0.0", port: 8080, activationName: "web")
    let control = UnixServer(path: "/run/chatd/control.sock", activationName: "control")
    var observers: Void { None }
}

// The workers mode, set in code (`--workers 4` overrides the count).
private struct EchoDaemon: Component {
    let listener = TCPServer(host: "0.0.0.0", port: 7070)
    var observers: Void { None }
}

extension EchoDaemon: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(workers: WorkerOptions(count: 4, backoff: Backoff(initial: .milliseconds(200), maximum: .seconds(10))))
    }
}

// A copy of the app started by another supervisor shares its port.
private struct SharedPort: Component {
    let listener = TCPServer(host: "0.0.0.0", port: 7070, reusePort: true)
    var observers: Void { None }
}

@MainActor
@Suite struct ProductionSampleTests {
    @Test func serversNameTheirInheritedSocketsAndShareTheirPortOnRequest() {
        let door = FrontDoor()
        #expect(door.web.activationName == "web")
        #expect(door.control.activationName == "control")
        #expect(SharedPort().listener.reusePort)
        #expect(!EchoDaemon().listener.reusePort)
    }

    @Test func theWorkersModeIsAStartupOption() {
        let workers = EchoDaemon.configuration.workers
        #expect(workers.count == 4)
        #expect(workers.backoff.initial == .milliseconds(200))
        #expect(StartupConfiguration().workers.count == 0)
        let literal: WorkerOptions = 2
        #expect(literal.count == 2)
    }
}
