import ComposeApp
#if canImport(Glibc)
import Glibc
#endif

/// `readFiles`: starts 32 reads of a 512 KiB file and 4 of FIFOs without a
/// writer, and shuts down at once, so that the shutdown finds them in
/// libuv's thread pool. The loop runs until each request's callback:
/// every read answers ("reads done 32 4": 32 files read whole, 4 errors),
/// the app exits 0 within its deadline, and `make check-leaks` finds
/// nothing of the requests left. (A FIFO's open once waited for a writer
/// forever, and the shutdown with it, past its deadline.)
struct ReadFilesScenario: Component {
    static let directory = "/tmp/compose-fixture-reads-\(getpid())"
    static let fileSize = 512 * 1024

    var observers: Void {
        didAppear += {
            guard let run = ReadFilesRun(directory: Self.directory, fileSize: Self.fileSize) else {
                say("setup failed: errno \(errno)")
                Application.shutdown(status: 1)
                return
            }
            run.start(files: 32, fifos: 4)
            Application.shutdown()
        }
    }
}

/// The reads of the readFiles scenario, and their answers.
@MainActor
final class ReadFilesRun {
    let directory: String
    let fileSize: Int
    private var expected = 0
    private var whole = 0
    private var failed = 0

    init?(directory: String, fileSize: Int) {
        self.directory = directory
        self.fileSize = fileSize
        guard mkdir(directory, 0o700) == 0 else { return nil }
        let fd = open("\(directory)/big.bin", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return nil }
        let bytes = [UInt8](repeating: 0x2A, count: fileSize)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == fileSize else { return nil }
    }

    func start(files: Int, fifos: Int) {
        expected = files + fifos
        for index in 0..<fifos {
            let fifo = "\(directory)/fifo-\(index)"
            guard mkfifo(fifo, 0o600) == 0 else {
                say("mkfifo failed: errno \(errno)")
                expected -= 1
                continue
            }
            Application.readFile(fifo) { self.answered($0) }
        }
        for _ in 0..<files {
            Application.readFile("\(directory)/big.bin") { self.answered($0) }
        }
    }

    private func answered(_ result: Result<[UInt8], LoopError>) {
        switch result {
        case .success(let bytes) where bytes.count == fileSize: whole += 1
        case .success(let bytes): say("short read: \(bytes.count) bytes")
        case .failure: failed += 1
        }
        expected -= 1
        if expected == 0 {
            removeDirectory()
            say("reads done \(whole) \(failed)")
        }
    }

    private func removeDirectory() {
        for index in 0..<4 { unlink("\(directory)/fifo-\(index)") }
        unlink("\(directory)/big.bin")
        rmdir(directory)
    }
}
