import ComposeApp
import ComposeTesting
import Testing

/// Follows `/var/log/app.log` while active; says what it saw.
private struct LogFollower: Component {
    let log: FileTail
    let journal = Journal()

    init(from start: FileTail.StartPosition = .end, maximumLineLength: LineLengthLimit = .default) {
        log = FileTail(path: "/var/log/app.log", from: start, maximumLineLength: maximumLineLength)
    }

    var observers: Void {
        log += { journal.entries.append($0) }
        log.changes += { journal.entries.append("<\($0)>") }
        log.errors += { journal.entries.append("error: \($0.kind)") }
    }
}

/// `FileTail` on a `TestApp`'s files: every rule of `tail -F`, on virtual
/// time (the same scenarios on real files are in ComposeAppTests).
@MainActor
@Suite struct TestAppFileTailTests {
    @Test func aTailInAComponentFollowsAppendsRotationAndTruncation() throws {
        let app = TestApp(root: LogFollower()) { app in
            app.files.write("/var/log/app.log", "before start\n")
        }
        let follower = try #require(app.root(as: LogFollower.self))
        #expect(follower.log.isFollowing)
        app.files.append("/var/log/app.log", "one\ntw")
        app.files.append("/var/log/app.log", "o\n")
        #expect(follower.journal.entries == ["one", "two"])

        follower.journal.entries = []
        app.run {
            app.files.rename("/var/log/app.log", to: "/var/log/app.log.1")
            app.files.append("/var/log/app.log.1", "last of the old")
            app.files.write("/var/log/app.log", "first of the new\n")
        }
        app.files.truncate("/var/log/app.log")
        app.files.append("/var/log/app.log", "after\n")
        #expect(follower.journal.entries == ["last of the old", "<rotated>", "first of the new", "<truncated>", "after"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aPausedTailReadsNothingUntilResumed() throws {
        let app = TestApp(root: LogFollower()) { app in
            app.files.write("/var/log/app.log", "")
        }
        let follower = try #require(app.root(as: LogFollower.self))
        follower.log.pauseReading()
        app.files.append("/var/log/app.log", "waits\n")
        app.files.append("/var/log/app.log", "in the file\n")
        #expect(follower.journal.entries == [])
        #expect(follower.log.offset == 0)

        app.run { follower.log.resumeReading() }
        #expect(follower.journal.entries == ["waits", "in the file"])
        #expect(follower.log.offset == 18)
    }

    @Test func aLineOverTheLimitIsAnErrorAndTheNextLineIsSent() throws {
        let app = TestApp(root: LogFollower(maximumLineLength: 8)) { app in
            app.files.write("/var/log/app.log", "")
        }
        let follower = try #require(app.root(as: LogFollower.self))
        app.files.append("/var/log/app.log", "short\nmuch too long for it\nok\n")
        #expect(follower.journal.entries == ["short", "error: lineTooLong", "ok"])
    }

    @Test func aStoppedTailGoesOnFromWhereItStoppedInTheSameFile() throws {
        let app = TestApp(root: LogFollower(from: .start)) { app in
            app.files.write("/var/log/app.log", "a\n")
        }
        let follower = try #require(app.root(as: LogFollower.self))
        #expect(follower.journal.entries == ["a"])
        app.run { follower.log.stop() }
        app.files.append("/var/log/app.log", "b\n")
        #expect(follower.journal.entries == ["a"])
        app.run { follower.log.start() }
        #expect(follower.journal.entries == ["a", "b"])
    }

    @Test func chunksAreTheBytesAsRead() throws {
        let app = TestApp(root: LogFollower()) { app in
            app.files.write("/var/log/app.log", "")
        }
        let follower = try #require(app.root(as: LogFollower.self))
        var chunks: [[UInt8]] = []
        follower.log.chunks += { chunks.append(Array($0)) }
        app.files.append("/var/log/app.log", "no newline")
        #expect(chunks == [Array("no newline".utf8)])
        #expect(follower.journal.entries == [])
    }

    @Test func aFollowingTailKeepsTheAppRunningAndClosesWithItsComponent() {
        let app = TestApp(root: LogFollower())
        app.runUntilExit(limit: .seconds(3600))
        #expect(!app.hasExited)
        app.send(.terminate)
        #expect(app.exitStatus == 0)
    }
}
