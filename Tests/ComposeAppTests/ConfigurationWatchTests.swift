@testable import ComposeApp
import ComposeConfiguration
import Testing

/// A `watch` reader told of a reload, off the main actor.
///
/// The live-loop tests running beside it hold the main actor for tens of
/// seconds on a loaded machine, so a wait that needs the main actor has
/// no honest short bound. Only the two synchronous steps that must run
/// there (making the configuration, reloading it) do; each wait for the
/// watch is for an event delivered off it, bounded by ``limit``: a watch
/// that is never told fails in seconds instead of hanging.
@Suite struct ConfigurationWatchTests {
    /// How long the watch may take to deliver a value it was sent: far
    /// more than it needs (it is yielded during the reload itself).
    static let limit: Duration = .seconds(30)

    @Test func aWatchingReaderSeesTheReloadedValue() async throws {
        let file = try TemporaryFile(#"{"greeting": "one"}"#)
        let path = file.path
        let configuration = await MainActor.run { AppConfiguration(overrides: ["config": .string(path)], options: ConfigOptions(fileFormat: .json)) }
        let reader = await configuration.reader
        let (greetings, delivery) = AsyncStream<String>.makeStream()
        let watch = Task {
            try await reader.watchString(forKey: "greeting", default: "none") { updates in
                for await greeting in updates {
                    delivery.yield(greeting)
                    if greeting == "two" { break }
                }
            }
        }
        var seen = greetings.makeAsyncIterator()

        // The next greeting other than `previous`, or nil past the limit
        // (the stream is ended then, and the test fails).
        func next(after previous: String?) async -> String? {
            let timer = Task {
                // Real time on purpose: a bound, not synchronisation. The
                // reload comes from the kernel's file events on a real
                // file, which no virtual clock drives; the wait ends at the
                // greeting (the timer is cancelled), and this only turns a
                // reload that never comes into a failure instead of a hang.
                try await Task.sleep(for: Self.limit)  // real time: a bound on kernel file events, cancelled at the greeting
                delivery.finish()
            }
            defer { timer.cancel() }
            while let greeting = await seen.next() {
                if greeting != previous { return greeting }
            }
            return nil
        }

        #expect(await next(after: nil) == "one")
        try file.write(#"{"greeting": "two"}"#)
        #expect(await MainActor.run { configuration.reload() })
        #expect(await next(after: "one") == "two")
        // Over once it saw "two"; ended here if it never does.
        watch.cancel()
        _ = try? await watch.value
    }
}
