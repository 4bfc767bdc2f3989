@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Collects what a watcher reports.
@MainActor
private final class WatchProbe {
    var events: [FileWatcher.Event] = []
    var errors: [LoopError] = []

    init(_ watcher: FileWatcher) {
        watcher += { self.events.append($0) }
        watcher.errors += { self.errors.append($0) }
    }

    /// Runs the loop until `path` was reported as `kind`.
    func waitFor(_ kind: FileWatcher.Event.Kind, _ path: String) -> Bool {
        LoopDriver.run(until: { self.events.contains(FileWatcher.Event(path: path, kind: kind)) })
    }
}

/// A fresh directory, removed by `remove()`.
private struct TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "compose-io-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
    }

    func append(_ name: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file(name)))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

private struct WatchedFolder: Component {
    let watcher: FileWatcher
    var observers: Void { None }
}

@MainActor
@Suite(.serialized, .liveLoop) struct FileWatcherTests {
    @Test func creatingAFileInAWatchedDirectoryReportsItAsCreated() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let watcher = FileWatcher(path: directory.path)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()
        #expect(watcher.isWatching)

        try directory.write("new.txt", "hello")
        #expect(probe.waitFor(.created, directory.file("new.txt")))
        #expect(probe.events.first == FileWatcher.Event(path: directory.file("new.txt"), kind: .created))
    }

    @Test func writingToAFileReportsItAsModified() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("log.txt", "first\n")
        let watcher = FileWatcher(path: directory.path)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        try directory.append("log.txt", "second\n")
        #expect(probe.waitFor(.modified, directory.file("log.txt")))
        #expect(!probe.events.contains { $0.kind != .modified })
    }

    @Test func deletingAFileReportsItAsDeleted() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("old.txt", "bye")
        let watcher = FileWatcher(path: directory.path)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        try FileManager.default.removeItem(atPath: directory.file("old.txt"))
        #expect(probe.waitFor(.deleted, directory.file("old.txt")))
        #expect(probe.events == [FileWatcher.Event(path: directory.file("old.txt"), kind: .deleted)])
    }

    @Test func movingAFileOntoAnExistingNameReportsTheOldNameDeletedAndTheTargetRenamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("draft.txt", "new contents")
        try directory.write("config.txt", "old contents")
        let watcher = FileWatcher(path: directory.path)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        // What an editor's atomic save does.
        #expect(rename(directory.file("draft.txt"), directory.file("config.txt")) == 0)
        #expect(probe.waitFor(.renamed, directory.file("config.txt")))
        #expect(probe.events == [
            FileWatcher.Event(path: directory.file("draft.txt"), kind: .deleted),
            FileWatcher.Event(path: directory.file("config.txt"), kind: .renamed),
        ])
    }

    @Test func watchingAMissingPathSendsAnErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let missing = directory.file("no-such-directory")
        let before = LoopDriver.openHandleCount
        let watcher = FileWatcher(path: missing)
        let probe = WatchProbe(watcher)
        watcher.start()
        LoopDriver.settle()

        #expect(!watcher.isWatching)
        let error = try #require(probe.errors.first)
        #expect(error.kind == .notFound)
        #expect(error.description.contains(missing))
        #expect(LoopDriver.openHandleCount == before)
    }

    @Test func aStoppedWatcherReportsNothingMore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stopped = FileWatcher(path: directory.path)
        let sentinel = FileWatcher(path: directory.path)
        defer { stopped.close(); sentinel.close(); LoopDriver.settle() }
        let stoppedProbe = WatchProbe(stopped)
        let sentinelProbe = WatchProbe(sentinel)
        stopped.start()
        sentinel.start()
        stopped.stop()
        #expect(!stopped.isWatching)

        // Both handles share one inotify watch: when the sentinel has the
        // event, the stopped watcher would have had it too.
        try directory.write("after-stop.txt", "")
        #expect(sentinelProbe.waitFor(.created, directory.file("after-stop.txt")))
        #expect(stoppedProbe.events.isEmpty)
    }

    @Test func aDirectoryWatcherDoesNotSeeChangesInsideItsSubdirectories() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(atPath: directory.file("sub"), withIntermediateDirectories: false)
        let watcher = FileWatcher(path: directory.path)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        try directory.write("sub/inner.txt", "nested")
        try directory.append("sub/inner.txt", "more")
        try FileManager.default.removeItem(atPath: directory.file("sub/inner.txt"))
        // inotify queues events in order: once the marker's event is here,
        // any event about the nested file would have been too.
        try directory.write("marker.txt", "")
        #expect(probe.waitFor(.created, directory.file("marker.txt")))
        #expect(!probe.events.contains { $0.path.hasPrefix(directory.file("sub/")) })
    }

    @Test func aFileWatcherReportsChangesToThatFileUnderItsOwnPath() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("settings.json", "{}")
        let watcher = FileWatcher(path: directory.file("settings.json"))
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        try directory.append("settings.json", "\n")
        #expect(probe.waitFor(.modified, directory.file("settings.json")))
        try FileManager.default.removeItem(atPath: directory.file("settings.json"))
        #expect(probe.waitFor(.deleted, directory.file("settings.json")))
    }

    @Test func replacingAWatchedFileReportsItAsRenamed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("settings.json", "{}")
        try directory.write("settings.json.tmp", "{\"new\": true}")
        let watcher = FileWatcher(path: directory.file("settings.json"))
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        #expect(rename(directory.file("settings.json.tmp"), directory.file("settings.json")) == 0)
        #expect(probe.waitFor(.renamed, directory.file("settings.json")))
    }

    @Test func deletingTheWatchedDirectoryReportsItUnderItsOwnPath() throws {
        let parent = try TemporaryDirectory()
        defer { parent.remove() }
        let watched = parent.file("watched")
        try FileManager.default.createDirectory(atPath: watched, withIntermediateDirectories: false)
        let watcher = FileWatcher(path: watched)
        defer { watcher.close(); LoopDriver.settle() }
        let probe = WatchProbe(watcher)
        watcher.start()

        try FileManager.default.removeItem(atPath: watched)
        #expect(probe.waitFor(.deleted, watched))
    }

    @Test func aWatcherInAComponentWatchesWhileActiveAndClosesWithTheComponent() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let before = LoopDriver.openHandleCount
        let tree = ComponentTree(WatchedFolder(watcher: FileWatcher(path: directory.path + "/")))
        let watcher = try #require(tree.root.value(as: WatchedFolder.self)?.watcher)
        #expect(watcher.path == directory.path)
        #expect(!watcher.isWatching)

        tree.activate()
        #expect(watcher.isWatching)
        #expect(LoopDriver.openHandleCount == before + 1)
        var events: [FileWatcher.Event] = []
        watcher += { events.append($0) }
        try directory.write("seen.txt", "")
        #expect(LoopDriver.run(until: { !events.isEmpty }))

        tree.destroy()
        LoopDriver.settle()
        #expect(!watcher.isWatching)
        #expect(LoopDriver.openHandleCount == before)
        watcher.start()
        #expect(!watcher.isWatching, "a destroyed component's watcher stays closed")
    }
}
