@_spi(Testing) import ComposeApp
import ComposeTesting
import Testing

/// What a tail sent, in order.
@MainActor
private final class TailProbe {
    var lines: [String] = []
    var changes: [FileTail.Change] = []
    var errors: [LoopError] = []

    init(_ tail: FileTail) {
        tail += { self.lines.append($0) }
        tail.changes += { self.changes.append($0) }
        tail.errors += { self.errors.append($0) }
    }
}

/// A tail as a daemon might write it without `FileTail`: it watches the
/// directory, reads the whole file (without blocking the loop) when the
/// name is `created` or `renamed`, as a new file, and what follows its
/// offset when it is `modified`. Right when each event is seen alone;
/// wrong when a rotation's events are seen together, as Linux gives them
/// to a reader slower than the writer: both events about the name say
/// `renamed`, and it sends the new file twice.
@MainActor
private final class NaiveTail {
    let watcher: FileWatcher
    let path: String
    var lines: [String] = []
    private var offset = 0

    init(path: String, directory: String) {
        self.path = path
        watcher = FileWatcher(path: directory)
        watcher += { [unowned self] event in
            guard event.path == self.path else { return }
            switch event.kind {
            case .created, .renamed: self.read(fromStart: true)
            case .modified: self.read(fromStart: false)
            case .deleted: break
            }
        }
    }

    private func read(fromStart: Bool) {
        Application.readFile(path) { [self] result in
            guard case .success(let bytes) = result else { return }
            let start = fromStart ? 0 : min(offset, bytes.count)
            offset = bytes.count
            let text = String(decoding: bytes[start...], as: UTF8.self)
            lines += text.split(separator: "\n").map(String.init)
        }
    }
}

@MainActor
@Suite(.serialized, .liveLoop) struct FileTailTests {
    /// The scenario of a log daemon's input: lines appended, a rotation
    /// by `mv` and a new file (with a last line appended to the old file
    /// after the `mv`, before the writer reopens), a truncation. Same
    /// lines on real files and on the simulation, none twice, none lost.
    @Test(arguments: FileWorldKind.allCases)
    func followsAppendedLinesAcrossRotationAndTruncation(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.write("app.log", "old 1\nold 2\n")
        let tail = FileTail(path: world.path("app.log"))
        defer { tail.close() }
        let probe = TailProbe(tail)
        world.perform { tail.start() }
        #expect(world.run(until: { !tail.isChecking }))
        #expect(tail.offset == 12, "from the end: the lines already there are not sent")

        world.append("app.log", "line 1\nline 2\n")
        #expect(world.run(until: { probe.lines.count == 2 }))
        world.append("app.log", "partial")
        world.append("app.log", " done\nline 4\n")
        #expect(world.run(until: { probe.lines.last == "line 4" }))

        world.together {
            world.rename("app.log", to: "app.log.1")
            world.append("app.log.1", "late\n")
            world.write("app.log", "new 1\n")
        }
        #expect(world.run(until: { probe.lines.last == "new 1" }))
        world.append("app.log", "new 2\n")
        #expect(world.run(until: { probe.lines.last == "new 2" }))

        world.truncate("app.log")
        #expect(world.run(until: { probe.changes.last == .truncated }))
        world.append("app.log", "after truncation\n")
        #expect(world.run(until: { probe.lines.last == "after truncation" }))
        world.append("app.log", "end\n")
        #expect(world.run(until: { probe.lines.last == "end" }))

        #expect(probe.lines == [
            "line 1", "line 2", "partial done", "line 4", "late", "new 1", "new 2", "after truncation", "end",
        ], "\(kind)")
        #expect(probe.changes == [.rotated, .truncated], "\(kind)")
        #expect(probe.errors.isEmpty, "\(kind)")
    }

    /// The same rotation, seen by a tail that re-reads the file on each
    /// `renamed`: it sends the new file's line twice, on the simulation as
    /// on real files, so a test on `TestApp` catches it; `FileTail` sends
    /// it once.
    @Test(arguments: FileWorldKind.allCases)
    func aNaiveTailSendsARotatedLineTwiceOnBothAndFileTailOnce(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.write("app.log", "old\n")
        let tail = FileTail(path: world.path("app.log"))
        let naive = NaiveTail(path: world.path("app.log"), directory: world.directory)
        defer { tail.close(); naive.watcher.close() }
        let probe = TailProbe(tail)
        world.perform {
            tail.start()
            naive.watcher.start()
        }
        #expect(world.run(until: { !tail.isChecking }))

        world.together {
            world.rename("app.log", to: "app.log.1")
            world.write("app.log", "new 1\n")
        }
        #expect(world.run(until: { probe.lines == ["new 1"] && naive.lines.filter { $0 == "new 1" }.count >= 2 }), "\(kind): naive \(naive.lines)")
        world.append("app.log", "end\n")
        #expect(world.run(until: { probe.lines.last == "end" && naive.lines.contains("end") }))

        #expect(probe.lines == ["new 1", "end"], "\(kind)")
        #expect(naive.lines != probe.lines, "\(kind): the naive tail must be caught")
        // Twice at least (on real files the thread pool may finish the
        // naive tail's reads out of order: a third copy).
        #expect(naive.lines.filter { $0 == "new 1" }.count >= 2, "\(kind): \(naive.lines)")
        if kind == .simulation {
            #expect(naive.lines == ["new 1", "new 1", "end"])
        }
    }

    /// A path without a file: the tail waits, then reads the file that
    /// appears from its start; a deletion, and a new file, the same.
    @Test(arguments: FileWorldKind.allCases)
    func aMissingFileIsFollowedFromItsStartOnceItAppears(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        let tail = FileTail(path: world.path("app.log"))
        defer { tail.close() }
        let probe = TailProbe(tail)
        world.perform { tail.start() }
        #expect(world.run(until: { !tail.isChecking }))
        #expect(tail.isFollowing)

        world.write("app.log", "first\n")
        #expect(world.run(until: { probe.lines == ["first"] }))
        world.append("app.log", "second\n")
        #expect(world.run(until: { probe.lines.last == "second" }))
        world.delete("app.log")
        #expect(world.run(until: { probe.changes.last == .disappeared }))
        world.write("app.log", "again\n")
        #expect(world.run(until: { probe.lines.last == "again" }))

        #expect(probe.lines == ["first", "second", "again"], "\(kind)")
        #expect(probe.changes == [.appeared, .disappeared, .rotated], "\(kind)")
        #expect(probe.errors.isEmpty, "\(kind)")
    }

    @Test(arguments: FileWorldKind.allCases)
    func fromTheStartEveryLineIsSentAndAReplacedFileIsFollowed(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.write("app.log", "one\ntwo\n")
        let tail = FileTail(path: world.path("app.log"), from: .start)
        defer { tail.close() }
        let probe = TailProbe(tail)
        world.perform { tail.start() }
        #expect(world.run(until: { probe.lines == ["one", "two"] }))
        // Moved onto the path: no line of the old file is lost, the last
        // one is sent though it has no newline.
        world.together {
            world.append("app.log", "three")
            world.replace("app.log", with: "four\n")
        }
        #expect(world.run(until: { probe.lines.last == "four" }))
        #expect(probe.lines == ["one", "two", "three", "four"], "\(kind)")
        #expect(probe.changes == [.rotated], "\(kind)")
    }

    @Test(arguments: FileWorldKind.allCases)
    func aMissingDirectoryIsNotFoundOnErrors(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.markMissing("no-such-directory")
        let tail = FileTail(path: world.path("no-such-directory/app.log"))
        let probe = TailProbe(tail)
        world.perform { tail.start() }
        #expect(!tail.isFollowing)
        let error = try #require(probe.errors.first)
        #expect(error.kind == .notFound)
        #expect(error.description.contains("no-such-directory"))
    }

    /// Many lines at once: every one arrives, in order, within the loop's
    /// line budget per turn.
    @Test func manyLinesArriveInOrderWithinTheLineBudget() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        world.write("app.log", "")
        let tail = FileTail(path: world.path("app.log"))
        defer { tail.close() }
        let probe = TailProbe(tail)
        tail.start()
        #expect(world.run(until: { !tail.isChecking }))
        let count = 5_000
        world.append("app.log", (0..<count).map { "line \($0)\n" }.joined())
        #expect(world.run(until: { probe.lines.count == count }))
        #expect(probe.lines == (0..<count).map { "line \($0)" })
        #expect(LoopDriver.mostLinesInTurn <= LoopDriver.lineBudgetPerTurn)
    }
}
