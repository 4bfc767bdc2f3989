import ComposeApp
import ComposePersistence
import ComposeTesting
import Foundation
import Testing

/// A directory of its own under /tmp for one test, removed afterwards.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/compose-state-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func entries(of directory: String? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory ?? path)) ?? []).sorted()
    }
}

/// The file back end on a real file system: what is on disk after a save,
/// a corrupt file, an unwritable directory. (A full and a read-only file
/// system, and SIGKILL during saves: StateCrashTests.)
@MainActor
@Suite struct FileStateStorageTests {
    @Test func aSaveWritesTheBytesInANewPrivateDirectoryAndLeavesNoTemporaryFile() throws {
        let temporary = try ScratchDirectory()
        let directory = temporary.path + "/state/app"
        let storage = FileStateStorage(directory: directory)
        #expect(try storage.load(key: "settings") == nil)
        try storage.save(Array("first".utf8), key: "settings")
        try storage.save(Array("second".utf8), key: "settings")
        #expect(try storage.load(key: "settings") == Array("second".utf8))
        #expect(temporary.entries(of: directory) == ["settings.json"])
        #expect(try permissions(directory) == 0o700)
        #expect(try permissions(directory + "/settings.json") == 0o600)
    }

    @Test func keysNeverLeaveTheDirectory() throws {
        let temporary = try ScratchDirectory()
        let storage = FileStateStorage(directory: temporary.path)
        try storage.save([1], key: "../escape")
        try storage.save([2], key: ".hidden/key")
        try storage.save([3], key: "")
        #expect(temporary.entries() == ["%.json", "%2E.%2Fescape.json", "%2Ehidden%2Fkey.json"])
        #expect(try storage.load(key: "../escape") == [1])
    }

    @Test func moveAsideRenamesTheFileWithATimestamp() throws {
        let temporary = try ScratchDirectory()
        let storage = FileStateStorage(directory: temporary.path)
        try storage.save([1], key: "settings")
        let first = try storage.moveAside(key: "settings")
        try storage.save([2], key: "settings")
        let second = try storage.moveAside(key: "settings")
        #expect(try storage.load(key: "settings") == nil)
        let name = try #require(first.split(separator: "/").last)
        #expect(name.wholeMatch(of: /settings\.json\.corrupt-\d{8}T\d{6}Z/) != nil)
        #expect(second != first)
        #expect(second.hasPrefix(temporary.path + "/settings.json.corrupt-"))
        #expect(temporary.entries().count == 2)
    }

    @Test func temporaryFilesOfDeadProcessesAreRemovedAtLoad() throws {
        let temporary = try ScratchDirectory()
        let storage = FileStateStorage(directory: temporary.path)
        try storage.save([1], key: "settings")
        // No process has an id as high as pid_max.
        let pidMax = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let stale = temporary.path + "/.settings.json.\(pidMax).tmp"
        let live = temporary.path + "/.settings.json.\(getppid()).tmp"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data([9])))
        #expect(FileManager.default.createFile(atPath: live, contents: Data([9])))
        #expect(try storage.load(key: "settings") == [1])
        #expect(temporary.entries() == [".settings.json.\(getppid()).tmp", "settings.json"])
    }

    @Test func aCorruptFileIsMovedAsideReportedAndTheDefaultUsed() throws {
        let temporary = try ScratchDirectory()
        let app = TestApp(root: Idle())
        let persistence = StatePersistence(storage: FileStateStorage(directory: temporary.path), context: app.context)
        #expect(FileManager.default.createFile(atPath: temporary.path + "/tally.json", contents: Data("{\"version\":1,\"sta".utf8)))
        #expect(app.run { persistence.restore(Tally.self, key: "tally") } == nil)
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateUnreadable)
        #expect(diagnostic.message.contains("\(temporary.path)/tally.json cannot be decoded as Tally"))
        #expect(diagnostic.message.contains("moved aside to \(temporary.path)/tally.json.corrupt-"))
        let entries = temporary.entries()
        #expect(entries.count == 1)
        #expect(entries.first?.hasPrefix("tally.json.corrupt-") == true)
    }

    @Test(.enabled(if: UnwritableDirectory.isPossible, "root ignores permissions, and chattr is missing"))
    func anUnwritableDirectoryIsReportedKeepsThePreviousFileAndIsRetried() throws {
        let temporary = try ScratchDirectory()
        let directory = temporary.path + "/state"
        let app = TestApp(root: Idle())
        let persistence = StatePersistence(storage: FileStateStorage(directory: directory), context: app.context)
        app.run { persistence.stateDidChange(Tally(count: 1), key: "tally") }
        app.advance(by: .seconds(1))
        #expect(persistence.storage.directory == directory)
        #expect(temporary.entries(of: directory) == ["tally.json"])

        let lock = try UnwritableDirectory(directory)
        defer { lock.release() }
        app.run { persistence.stateDidChange(Tally(count: 2), key: "tally") }
        app.advance(by: .seconds(1))
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.code == .stateSaveFailed)
        #expect(diagnostic.message.contains("to \(directory)/tally.json: open failed: \(lock.expectedError)"))
        #expect(app.context.shutdown.phase == .running)
        lock.release()
        #expect(temporary.entries(of: directory) == ["tally.json"])
        #expect(try StateEnvelope.decode(Tally.self, from: #require(try persistence.storage.load(key: "tally"))) == Tally(count: 1))

        // Writable again: the next change is saved.
        app.run { persistence.stateDidChange(Tally(count: 3), key: "tally") }
        app.advance(by: .seconds(1))
        #expect(try StateEnvelope.decode(Tally.self, from: #require(try persistence.storage.load(key: "tally"))) == Tally(count: 3))
        #expect(app.diagnostics.count == 1)
    }

    @Test func aDirectoryUnderARegularFileIsReported() throws {
        let temporary = try ScratchDirectory()
        #expect(FileManager.default.createFile(atPath: temporary.path + "/file", contents: Data()))
        let app = TestApp(root: Idle())
        let persistence = StatePersistence(storage: FileStateStorage(directory: temporary.path + "/file/state"), context: app.context)
        app.run { persistence.stateDidChange(Tally(count: 1), key: "tally") }
        app.advance(by: .seconds(1))
        let diagnostic = try #require(app.diagnostics.first)
        #expect(diagnostic.message.contains("\(temporary.path)/file/state/tally.json: open failed: ENOTDIR (not a directory) for \(temporary.path)/file/state"))
        #expect(persistence.unsavedKeys == ["tally"])
    }

    @Test func theDefaultStateDirectoryFollowsXDG() {
        #expect(StartupConfiguration.defaultStateDirectory(app: "chatd", environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]) == "/x/state/chatd")
        #expect(StartupConfiguration.defaultStateDirectory(app: "chatd", environment: ["HOME": "/home/u"]) == "/home/u/.local/state/chatd")
        // A relative XDG_STATE_HOME is invalid and ignored, as the spec says.
        #expect(StartupConfiguration.defaultStateDirectory(app: "chatd", environment: ["XDG_STATE_HOME": "state", "HOME": "/home/u"]) == "/home/u/.local/state/chatd")
        #expect(StartupConfiguration(stateDirectory: "/srv/chat").resolvedStateDirectory(app: "chatd") == "/srv/chat")
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int) ?? -1
    }
}

/// Makes a directory unwritable for this process: mode 0500, or, as root
/// (who ignores permissions), the immutable attribute (`chattr +i`).
struct UnwritableDirectory {
    /// Whether this process can make one: as root only with `chattr`.
    static var isPossible: Bool {
        geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")
    }

    let path: String
    let isImmutable: Bool
    /// How the failure reads in a ``LoopError``.
    var expectedError: String {
        isImmutable ? "EPERM (operation not permitted)" : "EACCES (permission denied)"
    }

    init(_ path: String) throws {
        self.path = path
        isImmutable = geteuid() == 0
        if isImmutable {
            try Self.chattr("+i", path)
        } else {
            chmod(path, 0o500)
        }
    }

    func release() {
        if isImmutable {
            try? Self.chattr("-i", path)
        } else {
            chmod(path, 0o700)
        }
    }

    private static func chattr(_ flag: String, _ path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
    }
}
