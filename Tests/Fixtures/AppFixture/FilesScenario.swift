import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// `files`: a FileWatcher on a fresh temporary directory sees 20 cycles of
/// a file created, modified and deleted; each step waits for the watcher to
/// report the previous one. Then "files done", and the app shuts down with
/// the watcher still open (its component's destruction closes it).
/// Valgrind runs it: `make check-leaks`.
struct FilesScenario: Component {
    /// Made when the scenario appears (the fixture builds every scenario's
    /// component, so nothing is created on disk before that).
    static let directory = "/tmp/compose-fixture-files-\(getpid())"

    let watcher = FileWatcher(path: Self.directory, startsWithComponent: false)
    let run = FilesRun(directory: Self.directory)

    var observers: Void {
        watcher += { event in
            run.observed(event)
        }
        watcher.errors += { error in
            say("watch failed: \(error)")
            run.removeDirectory()
            Application.shutdown(status: 1)
        }
        didAppear += {
            guard mkdir(Self.directory, 0o700) == 0 else {
                say("mkdir failed: errno \(errno)")
                Application.shutdown(status: 1)
                return
            }
            watcher.start()
            run.step()
        }
    }
}

/// The create → modify → delete cycles of the files scenario.
@MainActor
final class FilesRun {
    static let cycles = 20

    let directory: String
    private var cycle = 0
    private var expected = FileWatcher.Event.Kind.created

    init(directory: String) {
        self.directory = directory
    }

    private var file: String { "\(directory)/file-\(cycle).txt" }

    /// Does what the current step says to the file.
    func step() {
        let done: Bool
        switch expected {
        case .created:
            let fd = open(file, O_CREAT | O_WRONLY | O_EXCL, 0o600)
            done = fd >= 0 && close(fd) == 0
        case .modified:
            let fd = open(file, O_WRONLY | O_APPEND)
            let text = "cycle \(cycle)\n"
            done = fd >= 0 && write(fd, text, text.utf8.count) == text.utf8.count && close(fd) == 0
        case .deleted, .renamed:
            done = unlink(file) == 0
        }
        if !done {
            say("\(expected) step failed: errno \(errno)")
            removeDirectory()
            Application.shutdown(status: 1)
        }
    }

    /// Moves to the next step once the watcher reported the current one.
    func observed(_ event: FileWatcher.Event) {
        guard event.path == file, event.kind == expected else { return }
        switch expected {
        case .created:
            expected = .modified
        case .modified:
            expected = .deleted
        case .deleted, .renamed:
            cycle += 1
            expected = .created
            if cycle == Self.cycles {
                removeDirectory()
                say("files done")
                Application.shutdown()
                return
            }
        }
        step()
    }

    func removeDirectory() {
        rmdir(directory)
    }
}
