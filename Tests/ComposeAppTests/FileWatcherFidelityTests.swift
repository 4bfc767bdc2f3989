@_spi(Testing) import ComposeApp
import ComposeTesting
import Testing

/// What `FileWatcher` reports for each operation on a file, pinned on
/// Linux (inotify through libuv) and required of `TestApp`'s simulated
/// files: one scenario, run in both worlds, must give the same events.
@MainActor
@Suite(.serialized, .liveLoop) struct FileWatcherFidelityTests {
    /// A watcher of the directory and one of the file `a`, through every
    /// operation a log or a configuration file goes through. After each
    /// step a marker file is created and awaited: inotify keeps the order
    /// of events, so every event of the step came before it.
    @Test(arguments: FileWorldKind.allCases)
    func eachOperationGivesTheEventsLinuxGives(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.write("a", "1\n")
        let directory = FileWatcher(path: world.directory)
        let file = FileWatcher(path: world.path("a"))
        defer { directory.close(); file.close() }
        var journal: [String] = []
        var markers: Set<String> = []
        let relative: (FileWatcher.Event) -> String = { String($0.path.dropFirst(world.directory.count + 1)) }
        directory += { event in
            let name = relative(event)
            if name.hasPrefix("marker-") { markers.insert(name) } else { journal.append("dir: \(event.kind) \(name)") }
        }
        file += { event in journal.append("file: \(event.kind) \(relative(event))") }
        world.perform {
            directory.start()
            file.start()
        }
        #expect(directory.isWatching && file.isWatching)

        var step = 0
        func expectStep(_ expected: [String], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
            step += 1
            world.write("marker-\(step)", "")
            #expect(world.run(until: { markers.contains("marker-\(step)") }), sourceLocation: sourceLocation)
            #expect(journal == expected, "\(kind): \(comment)", sourceLocation: sourceLocation)
            journal = []
        }

        world.append("a", "2\n")
        expectStep(["dir: modified a", "file: modified a"], "append")
        world.truncate("a")
        expectStep(["dir: modified a", "file: modified a"], "truncate")
        world.write("a", "x\n")
        expectStep(["dir: modified a", "file: modified a", "dir: modified a", "file: modified a"], "O_TRUNC, then write: two changes")
        world.touch("a")
        expectStep(["dir: modified a", "file: modified a"], "touch")
        world.rename("a", to: "a.1")
        expectStep(["dir: deleted a", "dir: created a.1", "file: deleted a"], "mv a a.1: seen from both names; the file's own watcher says its path is gone")
        world.append("a.1", "y\n")
        expectStep(["dir: modified a.1", "file: modified a"], "the file's watcher follows the file, under the path it was given")
        world.write("a", "new\n")
        expectStep(["dir: created a", "dir: modified a"], "a new a: the file's watcher is on a.1")
        world.replace("a", with: "saved\n")
        expectStep(["dir: renamed a"], "a file moved onto a (an atomic save)")
        world.delete("a.1")
        expectStep(
            ["file: modified a", "file: renamed a", "dir: deleted a.1"],
            "the watched file deleted: its link count, then its end (a path a exists, so renamed), once; before the directory's event"
        )
        world.together {
            world.rename("a", to: "a.1")
            world.write("a", "z\n")
        }
        expectStep(
            ["dir: renamed a", "dir: created a.1", "dir: renamed a", "dir: modified a"],
            "mv a a.1 and a new a, seen together: both events about a say renamed"
        )
        world.delete("a")
        expectStep(["dir: deleted a"], "rm a")
        #expect(world.run(until: { true }))
    }
}
