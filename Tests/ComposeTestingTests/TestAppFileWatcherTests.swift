import ComposeApp
import ComposeTesting
import Testing

/// `FileWatcher` in a `TestApp` registers with the test, never with
/// inotify; events keep inotify's semantics.
@MainActor
@Suite struct TestAppFileWatcherTests {
    @Test func aWatchedDirectorySeesItsDirectChildrenOnly() throws {
        let app = TestApp(root: ConfigWatcher())
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.files.modify("/etc/app/app.conf")
        #expect(watcher.journal.entries == ["dir: modified /etc/app/app.conf", "file: modified /etc/app/app.conf"])

        watcher.journal.entries = []
        app.files.create("/etc/app/new.conf")
        app.files.create("/etc/app/sub/deep.conf")   // a grandchild: not reported
        app.files.modify("/etc/other.conf")          // elsewhere
        #expect(watcher.journal.entries == ["dir: created /etc/app/new.conf"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aDeletedWatchedFileReportsItOnceThenNothingMore() throws {
        let app = TestApp(root: ConfigWatcher())
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.files.delete("/etc/app/app.conf")
        #expect(watcher.journal.entries == ["dir: deleted /etc/app/app.conf", "file: deleted /etc/app/app.conf"])
        #expect(!app.files.exists("/etc/app/app.conf"))

        watcher.journal.entries = []
        app.files.create("/etc/app/app.conf")
        #expect(watcher.journal.entries == ["dir: created /etc/app/app.conf"])
    }

    @Test func watchingAMissingPathFailsWithNotFoundNamingIt() throws {
        let app = TestApp(root: ConfigWatcher()) { app in
            app.files.markMissing("/etc/app/extra")
        }
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        #expect(watcher.journal.entries == ["extra error: uv_fs_event_start failed: ENOENT (no such file or directory) for /etc/app/extra/more.conf"])
        #expect(!watcher.extra.isWatching)
        #expect(watcher.directory.isWatching)
    }

    @Test func anActiveWatcherKeepsTheAppRunning() {
        let app = TestApp(root: Watching())
        app.runUntilExit(limit: .seconds(3600))
        #expect(!app.hasExited)
        app.send(.terminate)
        #expect(app.exitStatus == 0)
    }

    @Test func eventsReachTheAppOnItsClockNotInsideTheCall() throws {
        let app = TestApp(root: ConfigWatcher())
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.run {
            app.files.modify("/etc/app/app.conf")
            #expect(watcher.journal.entries == [])
        }
        #expect(watcher.journal.entries.count == 2)
    }
}
