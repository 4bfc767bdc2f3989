@_spi(Testing) import ComposeApp
import Testing

/// Loop calls happen on the loop's thread, which handles assert in debug
/// builds; the check behind that assertion tells the loop thread apart from
/// any other.
@MainActor
@Suite(.serialized, .liveLoop) struct LoopThreadTests {
    @Test func loopCallbacksRunOnTheLoopThreadAndADetachedTaskDoesNot() async throws {
        // Pinned as the runtime pins an app's loop; unpinned before the
        // test ends, since the main actor may move threads between tests.
        LoopDriver.pinLoopToCurrentThread()
        defer { LoopDriver.pinLoopToCurrentThread(false) }
        let isOnLoopThread = try #require(LoopDriver.loopThreadCheck())
        #expect(isOnLoopThread())

        let timer = LoopTimer(after: .milliseconds(1), startsWithComponent: false)
        var firedOnLoopThread: [Bool] = []
        timer += { firedOnLoopThread.append(isOnLoopThread()) }
        timer.start()
        #expect(LoopDriver.run(until: { !firedOnLoopThread.isEmpty }))
        #expect(firedOnLoopThread == [true])
        timer.close()

        let elsewhere = await Task.detached { isOnLoopThread() }.value
        #expect(!elsewhere)
    }
}
