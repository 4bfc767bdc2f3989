import ComposePersistence
import Foundation
import Testing

/// The fixture's persisted state (Tests/Fixtures/PersistFixture/Counter.swift).
struct FixtureCounter: Codable {
    var number: Int
    var check: Int
    var padding: String

    var isIntact: Bool {
        check == (number &* 2_654_435_761) % 1_000_000_007
            && padding.allSatisfy { $0 == Character(String(number % 10)) }
    }
}

/// Persisted state under the worst a real process meets: SIGKILL in the
/// middle of saves, a full file system, a read-only one.
///
/// The crash test kills the fixture 20 times; set COMPOSE_PERSIST_KILLS
/// (and COMPOSE_PERSIST_CHANGES, 10,000 by default) for a longer soak:
/// `COMPOSE_PERSIST_KILLS=500 COMPOSE_PERSIST_CHANGES=100000 swift test
/// --filter StateCrashTests`.
@Suite(.serialized) struct StateCrashTests {
    static let kills = ProcessInfo.processInfo.environment["COMPOSE_PERSIST_KILLS"].flatMap { Int($0) } ?? 20
    static let changes = ProcessInfo.processInfo.environment["COMPOSE_PERSIST_CHANGES"].flatMap { Int($0) } ?? 10_000

    /// The state in `directory`, read as the next start would.
    static func onDisk(_ directory: String) throws -> FixtureCounter? {
        guard let data = FileManager.default.contents(atPath: directory + "/counter.json") else { return nil }
        return try StateEnvelope.decode(FixtureCounter.self, from: Array(data))
    }

    @Test func everyRestartAfterSIGKILLRestoresTheLastCompletedSaveOrALaterOne() async throws {
        let temporary = try ScratchDirectory()
        let directory = temporary.path
        // One change per 1 ms tick at most (fewer when a save blocks the
        // loop for its fsyncs), each run killed 30 to 300 ms after the test
        // reads its first line. The killed runs count towards a number they
        // cannot reach, so none finishes before its kill however late the
        // kill lands (on a loaded machine the test reads and kills late: a
        // run once made 1,000 changes, and the eleventh finished all
        // 10,000); the last run then makes `changes` more.
        let batch = max(1, Self.changes / (Self.kills * 600))
        let environment = ["PERSIST_DIR": directory, "PERSIST_COUNT": "\(Int32.max)", "PERSIST_BATCH": "\(batch)", "PERSIST_PADDING": "4096"]
        var expected: Int?      // what the last kill left on disk
        var killed = 0, killedDuringASave = 0, killedBeforeReporting = 0, completedSaves = 0
        for _ in 0..<Self.kills {
            let app = try FixtureProcess(executable: "PersistFixture", arguments: ["crash"], environment: environment)
            let restored = try await app.waitForLine(startingWith: "restored ")
            // The restart restores exactly what the killed run committed.
            #expect(restored == "restored \(expected.map(String.init) ?? "none")", "\(app.transcript)")
            // Real time: the kill must land at an arbitrary moment of a
            // real process's saves, which no event announces.
            try await Task.sleep(for: .milliseconds(Int.random(in: 30...300)))   // real time: a random moment of a real process's saves
            app.signal(SIGKILL)
            await app.output.waitForEnd(timeout: FixtureProcess.failureTimeout)
            // Reaped before the next run starts: an unreaped (zombie) pid
            // still answers kill(pid, 0), so the next run would take its
            // temporary file for a live process's.
            _ = await app.waitForExit(killedOnPurpose: true)
            let lines = app.output.lines
            #expect(!lines.contains { $0.hasPrefix("done ") }, "a killed run cannot finish: \(app.transcript)")
            killed += 1
            let saves = lines.compactMap { $0.hasPrefix("saved ") ? Int($0.dropFirst(6)) : nil }
            completedSaves += saves.count
            if temporary.entries().contains(where: { $0.hasSuffix(".tmp") }) { killedDuringASave += 1 }

            // Never unreadable, never torn, never older than the last
            // completed save, never moved aside. (No file only when no save
            // ever completed.)
            guard let counter = try Self.onDisk(directory) else {
                #expect(saves.isEmpty && expected == nil, "after kill \(killed)")
                continue
            }
            #expect(counter.isIntact)
            #expect(counter.number >= saves.last ?? expected ?? 0, "after kill \(killed)")
            #expect(counter.number >= expected ?? 0)
            if counter.number > saves.last ?? expected ?? 0 { killedBeforeReporting += 1 }
            #expect(!temporary.entries().contains { $0.contains("corrupt") })
            expected = counter.number
        }

        // A last run makes `changes` more and saves the last at exit.
        // (100 changes per tick: the killed runs were slow on purpose.)
        let target = (expected ?? 0) + Self.changes
        var lastEnvironment = environment
        lastEnvironment["PERSIST_BATCH"] = "100"
        lastEnvironment["PERSIST_COUNT"] = "\(target)"
        let last = try FixtureProcess(executable: "PersistFixture", arguments: ["crash"], environment: lastEnvironment)
        #expect(try await last.waitForLine(startingWith: "restored ") == "restored \(expected.map(String.init) ?? "none")")
        try await last.waitFor("done \(target)")
        #expect(await last.waitForExit() == 0)
        #expect(try Self.onDisk(directory)?.number == target)
        #expect(temporary.entries() == ["counter.json"], "the restarts removed the temporary files of killed saves")
        #expect(killed == Self.kills)
        print("StateCrashTests: \(Self.changes) changes, \(killed) SIGKILLs (\(killedDuringASave) during a save's write, \(killedBeforeReporting) after a save's rename and before its report), \(completedSaves) reported saves before them; every restart restored a committed state")
    }
}

/// Where the runtime saves an app's state when its configuration names no
/// directory.
@Suite struct StateDirectoryTests {
    @Test func theRuntimeSavesInTheXDGStateDirectoryNamedAfterTheExecutable() async throws {
        let temporary = try ScratchDirectory()
        let app = try FixtureProcess(executable: "PersistFixture", arguments: ["seed"], environment: ["XDG_STATE_HOME": temporary.path])
        #expect(await app.waitForExit() == 0)
        let data = try #require(FileManager.default.contents(atPath: temporary.path + "/PersistFixture/counter.json"))
        #expect(try StateEnvelope.decode(FixtureCounter.self, from: Array(data)).number == 1)
    }

    /// A persisted store, ComposePersistence imported, and no other line:
    /// the real runtime saves and restores it (issue #33).
    @Test func aPersistedStoreIsSavedWithNoOtherLineThanTheImport() async throws {
        let temporary = try ScratchDirectory()
        for run in 0..<2 {
            let app = try FixtureProcess(executable: "PersistFixture", arguments: ["plain"], environment: ["PERSIST_DIR": temporary.path])
            #expect(try await app.waitForLine(startingWith: "restored ") == "restored \(run)", "\(app.transcript)")
            #expect(await app.waitForExit() == 0, "\(app.transcript)")
            #expect(!app.output.lines.contains { $0.hasPrefix("diagnostic ") }, "\(app.transcript)")
        }
        struct Visits: Codable { var count: Int }
        let data = try #require(FileManager.default.contents(atPath: temporary.path + "/visits.json"))
        #expect(try StateEnvelope.decode(Visits.self, from: Array(data)).count == 2)
    }
}

/// Runs the persistence fixture in a mount namespace of its own, on a small
/// tmpfs at PERSIST_DIR: needs root (or CAP_SYS_ADMIN) and `unshare`.
enum PrivateMount {
    static let isAvailable: Bool = {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        return (try? run(#"mount -t tmpfs -o size=16k tmpfs "$PERSIST_DIR""#, directory: "/tmp").status) == 0
    }()

    /// Runs `script` with `sh` in a new mount namespace, with PERSIST_DIR
    /// and FIXTURE (the fixture's path) set; returns its status and output.
    static func run(_ script: String, directory: String) throws -> (status: Int32, lines: [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--mount", "--propagation", "private", "sh", "-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["PERSIST_DIR"] = directory
        environment["FIXTURE"] = try FixtureProcess.executableURL("PersistFixture").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        return (process.terminationStatus, lines)
    }
}

@Suite(.serialized, .enabled(if: PrivateMount.isAvailable, "needs root and unshare to mount a small tmpfs; StatePersistenceTests inject the same failures through the back end"))
struct StateFileSystemTests {
    @Test func aFullFileSystemIsReportedKeepsThePreviousFileAndTheNextChangeIsSaved() throws {
        let temporary = try ScratchDirectory()
        let (status, lines) = try PrivateMount.run(#"mount -t tmpfs -o size=256k tmpfs "$PERSIST_DIR" && exec "$FIXTURE" diskfull"#, directory: temporary.path)
        #expect(status == 0, "\(lines)")
        let diagnostics = lines.filter { $0.hasPrefix("diagnostic ") }
        #expect(diagnostics.count == 1, "\(lines)")
        #expect(diagnostics.first?.hasPrefix("diagnostic stateSaveFailed Cannot save the state \"counter\" to \(temporary.path)/counter.json: write failed: ENOSPC (no space left on device) for \(temporary.path)/.counter.json.") == true, "\(lines)")
        #expect(lines.filter { !$0.hasPrefix("diagnostic ") } == [
            "on disk 1 intact true", "temporaries 0", "unsaved",
            "on disk 1 intact true", "temporaries 0", "unsaved counter",
            "on disk 3 intact true", "temporaries 0", "unsaved",
        ])
    }

    @Test func aReadOnlyFileSystemIsReportedKeepsThePreviousFileAndTheAppRuns() throws {
        let temporary = try ScratchDirectory()
        let script = #"mount -t tmpfs -o size=256k tmpfs "$PERSIST_DIR" && "$FIXTURE" seed && mount -o remount,ro "$PERSIST_DIR" && exec "$FIXTURE" readonly"#
        let (status, lines) = try PrivateMount.run(script, directory: temporary.path)
        #expect(status == 0, "\(lines)")
        let diagnostics = lines.filter { $0.hasPrefix("diagnostic ") }
        // The save at the change, then the retry at shutdown. (The retry at
        // exit comes after the root, which prints them, is gone.)
        #expect(diagnostics.count == 2, "\(lines)")
        #expect(diagnostics.allSatisfy { $0.contains("to \(temporary.path)/counter.json: open failed: EROFS (read-only file system)") }, "\(lines)")
        #expect(lines.filter { !$0.hasPrefix("diagnostic ") } == [
            "restored 1", "on disk 1 intact true", "temporaries 0", "unsaved counter",
        ])
    }
}
