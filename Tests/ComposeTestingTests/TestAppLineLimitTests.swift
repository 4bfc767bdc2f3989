import ComposeApp
import ComposeTesting
import Testing

/// Lines longer than the limit (64 KiB by default), on a `TestApp`: a TCP
/// client is disconnected, a child's output and standard input skip the
/// line and go on.
@MainActor
@Suite struct TestAppLineLimitTests {
    /// 70,000 bytes without a newline, written in pieces as a client would.
    static func writeOverLongLine(_ write: ([UInt8]) -> Void) {
        for _ in 0..<7 { write([UInt8](repeating: UInt8(ascii: "x"), count: 10_000)) }
    }

    @Test func aClientSendingALineOverTheLimitIsDisconnectedAndTheOthersStayServed() throws {
        let app = TestApp(root: ShoutServer())
        let server = try #require(app.root(as: ShoutServer.self))
        let flooder = try app.connect(port: 7070)
        let other = try app.connect(port: 7070)
        _ = flooder.readLines()
        _ = other.readLines()

        flooder.write("fine\n")
        #expect(flooder.readLines() == ["FINE"])
        Self.writeOverLongLine { flooder.write($0) }
        #expect(flooder.isClosedByApp)
        #expect(server.errors.entries == ["lineTooLong"])
        #expect(server.clients.count == 1)

        other.write("still here\n")
        #expect(other.readLines() == ["STILL HERE"])
        #expect(!other.isClosedByApp)
    }

    @Test func theCloseReasonIsTheErrorNamingThePeerAndTheLimit() throws {
        let app = TestApp(root: LimitedEcho())
        let echo = try #require(app.root(as: LimitedEcho.self))
        let peer = try app.connect(port: 7070)
        peer.write("1234567890\n12345678901")
        #expect(peer.readLines() == ["1234567890"])
        #expect(peer.isClosedByApp)
        let reason = try #require(echo.reasons.entries.first)
        #expect(reason.contains("TCPConnection.lines"))
        #expect(reason.contains("10 bytes"))
        #expect(reason.contains("127.0.0.1:\(peer.port)"))
    }

    @Test func aChildWritingALineOverTheLimitHasItSkippedAndGoesOn() throws {
        let app = TestApp(root: ProcessParent("worker")) { app in
            app.scriptProcess("worker") { run in
                run.writeOutput("before\n")
                TestAppLineLimitTests.writeOverLongLine { run.writeOutput($0) }
                run.writeOutput("\nafter\n")
                run.exit(status: 0)
            }
        }
        let supervisor = try #require(app.root(as: ProcessParent.self))
        #expect(supervisor.journal.entries == [
            "out: before", "error: lineTooLong worker", "out: after", "exit: exited with status 0",
        ])
    }

    @Test func standardInputSkipsALineOverTheLimitAndReadsOn() throws {
        let app = TestApp(root: Shell())
        let shell = try #require(app.root(as: Shell.self))
        app.standardInput.write("status\n")
        Self.writeOverLongLine { app.standardInput.write($0) }
        app.standardInput.write("\nhelp\n")
        app.standardInput.close()
        #expect(shell.journal.entries == ["status", "error: lineTooLong", "help", "<end>"])
        #expect(app.exitStatus == 0)
    }
}

/// Echoes lines of at most 10 bytes; journals why each connection closed.
struct LimitedEcho: Component {
    let listener = TCPServer(port: 7070)
    let clients = InstanceComponent<LimitedEchoClient>()
    let reasons = Journal()
    var observers: Void {
        listener += { connection in
            connection.maximumLineLength = 10
            clients.add { LimitedEchoClient(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, reason in
            reasons.entries.append("\(reason)")
            clients.remove(id)
        }
    }
}

struct LimitedEchoClient: Component {
    let connection: TCPConnection
    var observers: Void {
        connection.lines += { line in connection.writeLine(line) }
    }
}
