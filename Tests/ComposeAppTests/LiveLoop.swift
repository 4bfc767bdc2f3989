@_spi(Testing) import ComposeApp
import ComposeTesting
import Testing

/// Gives each test (each case of a parameterized one) a live app context
/// of its own: the event loop its real I/O runs on (`LoopDriver` drives it),
/// torn down after the test. Nothing is shared between tests. Its log is
/// kept in memory (`TestLog`): expected warnings are not printed.
///
/// ```swift
/// @MainActor
/// @Suite(.serialized, .liveLoop) struct TCPTests { ... }
/// ```
struct LiveLoop: TestTrait, SuiteTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> LiveLoop? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let context = try await MainActor.run { try AppContext.live(name: "test", logger: TestLog().makeLogger()) }
        try await context.run(function)
        await MainActor.run { _ = LoopDriver.tearDown(context) }
    }
}

extension Trait where Self == LiveLoop {
    /// A live app context (an event loop of its own) for each test.
    static var liveLoop: Self { Self() }
}
