import Foundation
import Testing

/// What the send queue limits are for: a daemon whose clients ask for far
/// more than they read stays near its starting size. The fixture's
/// `sendQueue` scenario, a real process (its peak resident size is its
/// own), sends each client 256 MiB; the hard limit (8 MiB) cuts each off.
@Suite struct SendQueueMemoryTests {
    @Test func clientsSentAGibibyteTheyDoNotReadLeaveThePeakResidentSizeNearWhereItStarted() async throws {
        let process = try FixtureProcess("sendQueue")
        let listening = try await process.waitForLine(startingWith: "sendqueue listening on ")
        let words = listening.split(separator: " ")
        let port = try #require(UInt16(words[3]), "\(listening)")
        let startKiB = try #require(Int(words[5]), "\(listening)")

        // Four clients that never read, one after another: 1 GiB asked for.
        var clients: [Int32] = []
        defer { clients.forEach { close($0) } }
        var cut = ""
        for count in 1...4 {
            clients.append(try RudeClient.connect(port: port))
            cut = try await process.waitForLine(startingWith: "sendqueue cut \(count) ")
        }
        let figures = cut.split(separator: " ")
        let peak = try #require(Int(figures[4]), "\(cut)")
        let endKiB = try #require(Int(figures[6]), "\(cut)")
        #expect(peak > 1 << 20, "\(cut)")               // the queue did fill
        #expect(peak <= 8 << 20, "\(cut)")              // never past the hard limit
        // At most each client's hard limit (the allocator may not reuse
        // what the last one freed: AddressSanitizer quarantines it), plus
        // room for the rest; far below the gibibyte sent (seen: about
        // 10 MiB, the first client's queue).
        #expect(endKiB - startKiB < (4 * 8 + 32) * 1024, "grew from \(startKiB) KiB to \(endKiB) KiB")

        process.signal(SIGTERM)
        #expect(await process.waitForExit() == 0, "\(process.transcript)")
    }
}
