@_spi(Testing) import ComposeApp
import ComposeTesting
import Foundation
import Testing

/// The file system a scenario runs against: real files in a temporary
/// directory (inotify, libuv's thread pool, a live loop), or a `TestApp`'s
/// simulated ones. A scenario written once against it must give the same
/// result in both: where it does not, the simulation is wrong.
@MainActor
protocol FileWorld: AnyObject {
    /// Which world it is, for messages.
    var kind: FileWorldKind { get }
    /// The scenario's own directory (it exists, empty).
    var directory: String { get }
    /// `open(O_CREAT | O_TRUNC)` then `write` (nothing for an empty text).
    func write(_ name: String, _ text: String)
    /// `open(O_CREAT | O_APPEND)` then `write` (nothing for an empty text).
    func append(_ name: String, _ text: String)
    /// `truncate(2)` to 0 bytes.
    func truncate(_ name: String)
    /// `rename(2)` within the directory.
    func rename(_ from: String, to: String)
    /// `unlink(2)`.
    func delete(_ name: String)
    /// Moves a file written outside the directory onto `name`.
    func replace(_ name: String, with text: String)
    /// `touch`.
    func touch(_ name: String)
    /// `mkdir`.
    func makeDirectory(_ name: String)
    /// Makes sure nothing is at `name` (the simulation takes any path it
    /// was not told about for a directory).
    func markMissing(_ name: String)
    /// Does `body`'s operations with no chance for the app to see the
    /// first before the last (a writer faster than its reader).
    func together(_ body: () -> Void)
    /// Runs `body` as the app's code (starts resources in its context).
    func perform(_ body: () -> Void)
    /// Runs the app until `condition` holds: whether it does (a live loop
    /// gives up after 10 s).
    func run(until condition: () -> Bool) -> Bool
    /// Removes what it made.
    func tearDown()
}

enum FileWorldKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case kernel
    case simulation

    var testDescription: String { rawValue }

    /// A fresh world of this kind.
    @MainActor
    func make() throws -> any FileWorld {
        switch self {
        case .kernel: try KernelFileWorld()
        case .simulation: SimulatedFileWorld()
        }
    }
}

extension FileWorld {
    func path(_ name: String) -> String { directory + "/" + name }
}

/// Real files, in a fresh temporary directory, on the test's live loop.
@MainActor
final class KernelFileWorld: FileWorld {
    let kind = FileWorldKind.kernel
    let directory: String
    /// Where `replace` writes before it moves the file in.
    private let elsewhere: String

    init() throws {
        let base = NSTemporaryDirectory() + "compose-files-\(UUID().uuidString)"
        directory = base + "/watched"
        elsewhere = base + "/elsewhere"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) {
        writeFile(path(name), text, flags: O_WRONLY | O_CREAT | O_TRUNC)
    }

    func append(_ name: String, _ text: String) {
        writeFile(path(name), text, flags: O_WRONLY | O_CREAT | O_APPEND)
    }

    func truncate(_ name: String) {
        #expect(Glibc.truncate(path(name), 0) == 0, "truncate \(name): errno \(errno)")
    }

    func rename(_ from: String, to: String) {
        #expect(Glibc.rename(path(from), path(to)) == 0, "rename \(from): errno \(errno)")
    }

    func delete(_ name: String) {
        #expect(unlink(path(name)) == 0, "unlink \(name): errno \(errno)")
    }

    func replace(_ name: String, with text: String) {
        let temporary = elsewhere + "/" + name
        writeFile(temporary, text, flags: O_WRONLY | O_CREAT | O_TRUNC)
        #expect(Glibc.rename(temporary, path(name)) == 0, "rename onto \(name): errno \(errno)")
    }

    func touch(_ name: String) {
        let fd = open(path(name), O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0 && close(fd) == 0)
        #expect(utimensat(AT_FDCWD, path(name), nil, 0) == 0, "touch \(name): errno \(errno)")
    }

    func makeDirectory(_ name: String) {
        #expect(mkdir(path(name), 0o700) == 0, "mkdir \(name): errno \(errno)")
    }

    func markMissing(_ name: String) {
        #expect(access(path(name), F_OK) != 0)
    }

    func together(_ body: () -> Void) {
        // The loop does not run in between: it reads every event after.
        body()
    }

    func perform(_ body: () -> Void) {
        body()
    }

    func run(until condition: () -> Bool) -> Bool {
        LoopDriver.run(until: condition)
    }

    func tearDown() {
        LoopDriver.settle()
        try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }

    private func writeFile(_ path: String, _ text: String, flags: Int32) {
        let fd = open(path, flags, 0o600)
        #expect(fd >= 0, "open \(path): errno \(errno)")
        if !text.isEmpty {
            let written = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, text.utf8.count) }
            #expect(written == text.utf8.count)
        }
        close(fd)
    }
}

/// A `TestApp`'s simulated files.
@MainActor
final class SimulatedFileWorld: FileWorld {
    let kind = FileWorldKind.simulation
    let directory = "/srv/scenario"
    let app = TestApp(root: Idle())

    private struct Idle: Component {
        var observers: Void { None }
    }

    func write(_ name: String, _ text: String) { app.files.write(path(name), text) }
    func append(_ name: String, _ text: String) { app.files.append(path(name), text) }
    func truncate(_ name: String) { app.files.truncate(path(name)) }
    func rename(_ from: String, to: String) { app.files.rename(path(from), to: path(to)) }
    func delete(_ name: String) { app.files.delete(path(name)) }
    func replace(_ name: String, with text: String) { app.files.replace(path(name), with: text) }
    func touch(_ name: String) { app.files.modify(path(name)) }
    func markMissing(_ name: String) { app.files.markMissing(path(name)) }
    func makeDirectory(_ name: String) { app.files.makeDirectory(path(name)) }

    func together(_ body: () -> Void) {
        // Inside one `run`, each call's events wait for the end of it.
        app.run(body)
    }

    func perform(_ body: () -> Void) {
        app.run(body)
    }

    func run(until condition: () -> Bool) -> Bool {
        // Everything due already ran.
        condition()
    }

    func tearDown() {}
}
