@testable @_spi(Testing) import ComposeApp
import Testing

/// A filter with a megabyte of decoded bytes waiting as soon as anything
/// is received, handed out in records as OpenSSL's `SSL_read_ex` does: at
/// most the rest of the current record per call, and never more than it
/// is given room for. The first record is short, so that records do not
/// line up with the end of the decoding buffer: a pass that is offered
/// more room than the buffer has left would be written past its end.
@MainActor
private final class FloodFilter: StreamFilter {
    static let total = 1 << 20
    static let recordSize = 16 << 10
    static let firstRecordSize = 100

    /// Decoded bytes handed out so far.
    private(set) var handedOut = 0
    /// Bytes left in the current record.
    private var recordLeft = 0
    private var flooding = false
    /// The largest room a single `read(into:)` was offered.
    private(set) var largestRoom = 0

    static func byte(at offset: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: offset &* 31 &+ offset >> 9)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) {
        if !bytes.isEmpty { flooding = true }
    }

    func handshake() throws(LoopError) -> Bool { true }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(LoopError) -> Int? {
        largestRoom = max(largestRoom, buffer.count)
        guard flooding, handedOut < Self.total else { return 0 }
        if recordLeft == 0 {
            recordLeft = min(handedOut == 0 ? Self.firstRecordSize : Self.recordSize, Self.total - handedOut)
        }
        let count = min(recordLeft, buffer.count)
        // Every byte of the room it uses is written, as a decryption writes
        // it: past the buffer's end if the room offered is too large.
        for index in 0..<count {
            buffer[index] = Self.byte(at: handedOut + index)
        }
        handedOut += count
        recordLeft -= count
        return count
    }

    var hasBufferedInput: Bool { flooding && handedOut < Self.total }
    func write(_ bytes: UnsafeRawBufferPointer) throws(LoopError) {}
    func takeOutput(_ body: (UnsafeRawBufferPointer) -> Void) {}
    func endOutput() {}
}

@MainActor
private final class FloodProvider: StreamFilterProvider {
    var filters: [FloodFilter] = []
    func prepare() throws(LoopError) {}
    func makeFilter(peer: String) throws(LoopError) -> any StreamFilter {
        let filter = FloodFilter()
        filters.append(filter)
        return filter
    }
    var handshakeTimeout: Duration? { nil }
}

@MainActor
private final class FloodLog {
    var received: [UInt8] = []
    var chunkSizes: [Int] = []
    var errors: [LoopError] = []
}

private struct FloodSink: Component {
    let listener: TCPServer
    let clients = InstanceComponent<FloodSession>()
    let log: FloodLog
    var observers: Void {
        listener += { connection in clients.add { FloodSession(connection: connection, log: log) } }
        clients.forward(\.connection.errors) += { _, error in log.errors.append(error) }
    }
}

private struct FloodSession: Component {
    let connection: TCPConnection
    let log: FloodLog
    var observers: Void {
        connection += { chunk in
            log.chunkSizes.append(chunk.count)
            chunk.withUnsafeBytes { log.received.append(contentsOf: $0) }
        }
    }
}

/// The decoding loop of a filtered connection (`FilteredTransport.deliver()`),
/// whose pointer arithmetic hands the filter the free part of the loop's
/// decoding buffer (docs/unsafe.md).
@MainActor
@Suite(.serialized, .liveLoop)
struct FilteredTransportTests {
    /// More decoded bytes wait than the decoding buffer holds, in records
    /// that do not line up with its end: each pass fills the buffer to
    /// its last byte and no further. Room offered past the buffer's end
    /// (the proof of `deliver()` broken) makes the filter write past it:
    /// a heap-buffer-overflow under AddressSanitizer (`make test-asan`),
    /// and a chunk larger than the buffer here.
    @Test func aFilterWithMoreThanABufferfulPendingFillsEachBufferExactly() throws {
        let provider = FloodProvider()
        let listener = TCPServer(host: "127.0.0.1", port: 0)
        listener.filterProvider = provider
        let log = FloodLog()
        let tree = ComponentTree(FloodSink(listener: listener, log: log))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        try #require(listener.isListening)
        let client = ClientProbe(port: listener.port)
        #expect(LoopDriver.run(until: { client.connection != nil }))
        client.connection?.write([1])
        #expect(LoopDriver.run(until: { log.received.count >= FloodFilter.total }))
        let bufferSize = ReadBuffer().size
        #expect(FloodFilter.total > 2 * bufferSize, "passes that end with bytes still pending")
        #expect(log.received.count == FloodFilter.total)
        #expect(log.chunkSizes.allSatisfy { $0 <= bufferSize }, "\(log.chunkSizes)")
        #expect(log.chunkSizes.first == bufferSize, "a pass fills the buffer to its end")
        #expect(provider.filters.first?.largestRoom == bufferSize)
        #expect(log.received.indices.allSatisfy { log.received[$0] == FloodFilter.byte(at: $0) })
        #expect(log.errors.isEmpty, "\(log.errors)")
    }
}
