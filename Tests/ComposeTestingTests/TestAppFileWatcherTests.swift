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
        let app = TestApp(root: ConfigWatcher()) { app in
            app.files.write("/etc/app/app.conf", "port = 7070\n")
        }
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.files.delete("/etc/app/app.conf")
        // As on Linux: the file's link count changed, then it is gone
        // (inotify's end of the watch is not reported again), then the
        // directory's event.
        #expect(watcher.journal.entries == [
            "file: modified /etc/app/app.conf", "file: deleted /etc/app/app.conf", "dir: deleted /etc/app/app.conf",
        ])
        #expect(!app.files.exists("/etc/app/app.conf"))

        watcher.journal.entries = []
        app.files.create("/etc/app/app.conf")
        #expect(watcher.journal.entries == ["dir: created /etc/app/app.conf"])
    }

    @Test func aFileWrittenInTheTestHasContentsAndEveryWriteIsAChange() throws {
        let app = TestApp(root: ConfigWatcher()) { app in
            app.files.write("/etc/app/app.conf", "port = 7070\n")
        }
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.files.append("/etc/app/app.conf", "host = ::1\n")
        #expect(app.files.text(of: "/etc/app/app.conf") == "port = 7070\nhost = ::1\n")
        #expect(watcher.journal.entries == ["dir: modified /etc/app/app.conf", "file: modified /etc/app/app.conf"])

        watcher.journal.entries = []
        app.files.truncate("/etc/app/app.conf", to: 4)
        #expect(app.files.text(of: "/etc/app/app.conf") == "port")
        #expect(watcher.journal.entries == ["dir: modified /etc/app/app.conf", "file: modified /etc/app/app.conf"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aRenameIsSeenFromBothNamesAndTheFilesWatcherFollowsTheFile() throws {
        let app = TestApp(root: ConfigWatcher()) { app in
            app.files.write("/etc/app/app.conf", "v1\n")
        }
        let watcher = try #require(app.root(as: ConfigWatcher.self))
        app.files.rename("/etc/app/app.conf", to: "/etc/app/app.conf.old")
        #expect(watcher.journal.entries == [
            "dir: deleted /etc/app/app.conf", "dir: created /etc/app/app.conf.old", "file: deleted /etc/app/app.conf",
        ])
        #expect(app.files.text(of: "/etc/app/app.conf.old") == "v1\n")
        #expect(app.files.contents(of: "/etc/app/app.conf") == nil)

        watcher.journal.entries = []
        app.files.append("/etc/app/app.conf.old", "more\n")
        #expect(watcher.journal.entries == ["dir: modified /etc/app/app.conf.old", "file: modified /etc/app/app.conf"])

        // Written faster than the app reads: both events about the name
        // say `renamed`, as on Linux.
        watcher.journal.entries = []
        app.run {
            app.files.rename("/etc/app/app.conf.old", to: "/etc/app/app.conf.1")
            app.files.write("/etc/app/app.conf", "v2\n")
        }
        #expect(watcher.journal.entries == [
            "dir: deleted /etc/app/app.conf.old", "dir: created /etc/app/app.conf.1",
            // The file's watcher looks when a new file has the name.
            "file: renamed /etc/app/app.conf",
            "dir: created /etc/app/app.conf", "dir: modified /etc/app/app.conf",
        ])
    }

    @Test func aMisusedFileSystemCallIsATestIssue() {
        let app = TestApp(root: ConfigWatcher())
        withKnownIssue {
            app.files.rename("/etc/app/none.conf", to: "/etc/app/other.conf")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("cannot rename /etc/app/none.conf: no such file") }
        }
        #expect(app.files.contents(of: "/etc/app/other.conf") == nil)
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
