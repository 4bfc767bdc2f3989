@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Reads every line a client sends; counts timer ticks meanwhile.
private struct LineSink: Component {
    let listener = TCPServer(port: 0)
    let clients = InstanceComponent<LineCollector>()
    let lines: LineLog
    var observers: Void {
        listener += { connection in clients.add { LineCollector(connection: connection, lines: lines) } }
        clients.forward(\.connection.didClose) += { id, _ in clients.remove(id) }
    }
}

private struct LineCollector: Component {
    let connection: TCPConnection
    let lines: LineLog
    var observers: Void {
        connection.lines += { line in lines.lines.append(line) }
    }
}

/// `n` numbered lines, `1\n2\n...`, as bytes.
private func numberedLines(_ count: Int) -> (text: [UInt8], lines: [String]) {
    let lines = (1...count).map(String.init)
    return (Array((lines.joined(separator: "\n") + "\n").utf8), lines)
}

/// The line budget on real streams: a reader delivers at most
/// `lineBudgetPerTurn` lines per loop turn and keeps the rest of what it
/// read for the next turns, in order, losing nothing. Small budgets, so
/// that one read holds many times the budget. (The budget in bytes:
/// ReadBudgetTests.)
@MainActor
@Suite(.serialized, .liveLoop) struct LineBudgetTests {
    @Test func aChildsOutputDeliversAtMostItsBudgetPerTurnAndEveryLineInOrder() throws {
        LoopDriver.lineBudgetPerTurn = 50
        let process = ChildProcess("seq", arguments: ["1", "5000"])
        var lines: [String] = []
        var linesAtExit: Int?
        process.output += { lines.append($0) }
        process.didExit += { _ in linesAtExit = lines.count }
        try process.start()
        #expect(LoopDriver.run(until: { linesAtExit != nil }))
        #expect(linesAtExit == 5000)
        #expect(lines == (1...5000).map(String.init))
        // The cap was reached (a read holds hundreds of lines) and never
        // passed.
        #expect(LoopDriver.mostLinesInTurn == 50)
    }

    @Test func aChildDrainedAfterItsExitStillSendsItsBacklogWithinTheBudget() throws {
        // Reading pauses at the first line, with most of the output read
        // and held back by the budget; the child exits, and 200 ms later
        // its pipe is drained: the backlog still goes out within the
        // budget, before didExit.
        LoopDriver.lineBudgetPerTurn = 10
        let process = ChildProcess("seq", arguments: ["1", "3000"])
        var lines: [String] = []
        var linesAtExit: Int?
        process.output += { line in
            if lines.isEmpty { process.pauseReading() }
            lines.append(line)
        }
        process.didExit += { _ in linesAtExit = lines.count }
        try process.start()
        #expect(LoopDriver.run(until: { linesAtExit != nil }))
        #expect(linesAtExit == 3000)
        #expect(lines == (1...3000).map(String.init))
        #expect(LoopDriver.mostLinesInTurn == 10)
    }

    @Test func aConnectionsLinesArriveAtMostTheBudgetPerTurnInOrder() throws {
        LoopDriver.lineBudgetPerTurn = 100
        let log = LineLog()
        let tree = ComponentTree(LineSink(lines: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        let sink = try #require(tree.root.value(as: LineSink.self))
        let client = ClientProbe(port: sink.listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil && sink.clients.count == 1 }))
        let (bytes, expected) = numberedLines(20_000)
        client.connection?.write(bytes)
        #expect(LoopDriver.run(until: { log.lines.count == expected.count }))
        #expect(log.lines == expected)
        #expect(LoopDriver.mostLinesInTurn == 100)
    }

    @Test func aTimerKeepsTickingWhileAChildFloodsShortLines() throws {
        // `yes` writes lines as fast as it can; with the budget the loop
        // still reaches its timers between turns.
        LoopDriver.lineBudgetPerTurn = 1_024
        let process = ChildProcess("yes")
        var lines = 0
        process.output += { _ in lines += 1 }
        let timer = LoopTimer(every: .milliseconds(5))
        var ticks = 0
        timer += { ticks += 1 }
        timer.start()
        defer { timer.stop() }
        try process.start()
        #expect(LoopDriver.run(until: { ticks >= 10 }, timeout: .seconds(10)))
        #expect(lines > 1_024)
        process.kill(.kill)
        #expect(LoopDriver.run(until: { process.termination != nil }))
        #expect(LoopDriver.mostLinesInTurn == 1_024)
    }

    @Test(arguments: [false, true])
    func standardInputDeliversAtMostItsBudgetPerTurnInOrder(fromFile: Bool) throws {
        LoopDriver.lineBudgetPerTurn = 25
        let (bytes, expected) = numberedLines(4_000)
        let fd: Int32
        var file: URL?
        if fromFile {
            // A regular file: read with uv_fs_read, held between turns too.
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("compose-lines-\(UUID().uuidString)")
            try Data(bytes).write(to: url)
            file = url
            fd = open(url.path, O_RDONLY | O_CLOEXEC)
        } else {
            // A pipe holding every line before the first read.
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            #expect(bytes.count < 64 * 1024)
            _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            close(fds[1])
            fd = fds[0]
        }
        defer {
            close(fd)
            if let file { try? FileManager.default.removeItem(at: file) }
        }
        let input = StandardInput(fileDescriptor: fd, startsWithComponent: false)
        var lines: [String] = []
        var ended = false
        input += { lines.append($0) }
        input.didReachEnd += { ended = true }
        input.start()
        #expect(LoopDriver.run(until: { ended }))
        #expect(lines == expected)
        #expect(LoopDriver.mostLinesInTurn == 25)
    }
}
