import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// `sendQueue`: a TCPServer on port 0 that sends each client 256 MiB as it
/// connects, in 1 MiB writes, without a look at what `write` says (as if
/// every client asked for a huge reply and never read it), with a hard
/// send queue limit of 8 MiB. It prints "sendqueue listening on PORT rss
/// KIB", then, as each connection closes, "sendqueue cut N peak BYTES rss
/// KIB": how many were cut off, the largest queue any held, and the
/// process's peak resident size (`getrusage`'s `ru_maxrss`), which stays
/// near where it started whatever the clients were sent.
struct SendQueueScenario: Component {
    let listener = TCPServer(port: 0)
    let floods = InstanceComponent<SendQueueFlood>()
    let tally = SendQueueTally()

    var observers: Void {
        listener += { connection in
            connection.sendQueueLimits = SendQueueLimits(soft: 1 << 20, hard: 8 << 20)
            floods.add { SendQueueFlood(connection: connection) }
        }
        floods.forward(\.connection.didClose) += { id, _ in
            tally.cut += 1
            tally.peak = max(tally.peak, floods[id]?.connection.peakQueuedBytes ?? 0)
            floods.remove(id)
            say("sendqueue cut \(tally.cut) peak \(tally.peak) rss \(maximumResidentKiB())")
        }
        didAppear += {
            say("sendqueue listening on \(listener.port) rss \(maximumResidentKiB())")
        }
    }
}

/// One client's flood: 256 writes of 1 MiB, until one says `.closed`.
struct SendQueueFlood: Component {
    let connection: TCPConnection

    var observers: Void {
        didAppear += {
            let chunk = [UInt8](repeating: 0x66, count: 1 << 20)
            var written = 0
            while written < 256, connection.write(chunk) != .closed { written += 1 }
        }
    }
}

@MainActor
final class SendQueueTally {
    var cut = 0
    var peak = 0
}

/// The process's peak resident set size so far, in KiB.
func maximumResidentKiB() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return usage.ru_maxrss
}
