@_spi(Testing) import ComposeApp
import ComposeTesting
import Foundation
import Synchronization
import Testing

/// A second reader's attempts to break `FSRequest` (the `uv_fs_t`
/// requests on libuv's thread pool, docs/unsafe.md) through its users,
/// `readFile` and `FileTail`: requests in flight when the loop goes,
/// readers dropped under a read, files changing under a read, and files
/// that never end or never open. Each must answer, free what it held, and
/// stay clean under AddressSanitizer (`make test-asan`).
@MainActor
@Suite(.serialized, .liveLoop) struct FSRequestSafetyTests {
    /// Something a completion holds: gone once the request let go of it.
    private final class Token {}

    /// Reads `path` on the running loop and runs it until the answer.
    private func read(_ path: String, maximumSize: Int = 1 << 20) -> Result<[UInt8], LoopError>? {
        var answer: Result<[UInt8], LoopError>?
        Application.readFile(path, maximumSize: maximumSize) { answer = $0 }
        #expect(LoopDriver.run(until: { answer != nil }), "no answer for \(path)")
        return answer
    }

    // MARK: The loop goes with requests in flight

    /// Many reads started, then the loop torn down at once: the teardown
    /// runs the loop until every request's callback, so each completion
    /// runs once, with the right answer, and what it held is freed.
    @Test func readsInFlightWhenTheLoopIsTornDownEachCompleteOnceAndReleaseWhatTheyHeld() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let text = String(repeating: "0123456789abcdef", count: 20_000)
        world.write("big.txt", text)
        world.makeDirectory("sub")
        let context = try AppContext.live(name: "teardown", logger: TestLog().makeLogger())
        let reads = 48
        var answers = [[Result<[UInt8], LoopError>]](repeating: [], count: reads)
        var tokens: [Token] = (0..<reads).map { _ in Token() }
        let released = tokens.map { WeakToken($0) }
        for index in 0..<reads {
            let token = tokens[index]
            let path = switch index % 3 {
            case 0: world.path("big.txt")
            case 1: world.path("missing.txt")
            default: world.path("sub")
            }
            context.readFile(path) { result in
                _ = token
                answers[index].append(result)
            }
        }
        tokens = []
        #expect(LoopDriver.tearDown(context), "the loop was left open")
        for index in 0..<reads {
            #expect(answers[index].count == 1, "read \(index) answered \(answers[index].count) times")
            guard let answer = answers[index].first else { continue }
            switch (index % 3, answer) {
            case (0, .success(let bytes)): #expect(bytes.count == text.utf8.count && bytes.elementsEqual(text.utf8))
            case (1, .failure(let error)): #expect(error.kind == .notFound)
            case (2, .failure(let error)): #expect(error.kind == .isDirectory)
            default: Issue.record("read \(index): \(answer)")
            }
        }
        #expect(released.allSatisfy { $0.token == nil }, "a request kept its completion after the teardown")
    }

    /// A read asked for once the loop was torn down (a late task, a
    /// tail resumed after its app ended) answers at once with an error,
    /// without touching the freed loop.
    @Test func aReadAfterTheLoopWasTornDownFailsAtOnceWithoutTouchingIt() throws {
        let context = try AppContext.live(name: "gone", logger: TestLog().makeLogger())
        #expect(LoopDriver.tearDown(context))
        var answer: Result<[UInt8], LoopError>?
        context.readFile("/etc/hostname") { answer = $0 }
        guard case .failure(let error) = answer else {
            Issue.record("a read on a torn-down loop answered \(String(describing: answer))")
            return
        }
        #expect(error.kind == .noEventLoop)
    }

    /// A tail started on a loop that is then torn down, and resumed: its
    /// next request fails (on `errors`) instead of using the freed loop,
    /// and its file is closed all the same.
    @Test func aTailResumedAfterItsLoopWasTornDownReportsAnErrorAndStops() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        world.write("app.log", "one\n")
        let context = try AppContext.live(name: "gone", logger: TestLog().makeLogger())
        let tail = FileTail(path: world.path("app.log"), from: .start)
        var lines: [String] = []
        var errors: [LoopError] = []
        tail += { lines.append($0) }
        tail.errors += { errors.append($0) }
        context.run {
            tail.start()
            #expect(LoopDriver.run(until: { lines == ["one"] && !tail.isChecking }))
        }
        #expect(LoopDriver.tearDown(context))
        tail.pauseReading()
        tail.resumeReading()
        #expect(errors.map(\.kind) == [.noEventLoop], "\(errors)")
        #expect(!tail.isFollowing)
        tail.close()
        #expect(Self.descriptors(of: world.path("app.log")) == 0, "the tail's file was left open")
    }

    // MARK: Readers dropped under a read

    /// A tail closed while its read is in the thread pool, every reference
    /// dropped: the request keeps it (and the buffer the pool writes into)
    /// until the callback, then it goes, and its file is closed.
    @Test func aTailClosedUnderAReadAndDroppedGoesOnceTheReadEndsAndClosesItsFile() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let line = String(repeating: "x", count: 999) + "\n"
        world.write("app.log", String(repeating: line, count: 8_000))
        let path = world.path("app.log")
        var closedUnderARead = 0
        for _ in 0..<10 {
            weak var weakTail: FileTail?
            var chunks = 0
            do {
                let tail = FileTail(path: path, from: .start)
                weakTail = tail
                tail.chunks += { _ in chunks += 1 }
                tail.start()
                #expect(LoopDriver.run(until: { chunks > 0 }))
                if tail.isChecking { closedUnderARead += 1 }
                tail.close()
            }
            #expect(LoopDriver.run(until: { weakTail == nil }), "the tail outlived its last request")
            #expect(LoopDriver.run(until: { Self.descriptors(of: path) == 0 }), "the tail's file is still open")
        }
        #expect(closedUnderARead > 0, "no tail was closed under a read: the test proved nothing")
    }

    /// Stopped under a read, started again, stopped again, and dropped:
    /// the file the first stop left to the read is closed once, the tail
    /// goes.
    @Test func aTailStoppedRestartedAndStoppedUnderAReadLeavesNoFileOpen() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let line = String(repeating: "y", count: 499) + "\n"
        world.write("app.log", String(repeating: line, count: 8_000))
        let path = world.path("app.log")
        weak var weakTail: FileTail?
        var chunks = 0
        do {
            let tail = FileTail(path: path, from: .start)
            weakTail = tail
            tail.chunks += { _ in chunks += 1 }
            tail.start()
            #expect(LoopDriver.run(until: { chunks > 0 }))
            tail.stop()
            tail.start()
            tail.stop()
            tail.start()
            #expect(LoopDriver.run(until: { chunks > 3 }))
            tail.close()
        }
        #expect(LoopDriver.run(until: { weakTail == nil }))
        #expect(LoopDriver.run(until: { Self.descriptors(of: path) == 0 }), "a stopped tail left its file open")
    }

    // MARK: Files that change, never end, or never open

    /// Files rewritten, truncated and replaced by another thread while
    /// they are read: every read answers with at most the limit, made of
    /// the bytes written.
    @Test func filesRewrittenTruncatedAndReplacedUnderReadsGiveBoundedAnswers() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let path = world.path("busy.txt")
        let spare = world.path("spare.txt")
        world.write("busy.txt", String(repeating: "a", count: 100_000))
        let stop = StopFlag()
        let writer = Thread {
            var round = 0
            while !stop.value.load(ordering: .relaxed) {
                round += 1
                let letter: UInt8 = round % 2 == 0 ? 0x61 : 0x62
                let bytes = [UInt8](repeating: letter, count: 1_000 * (round % 300))
                Self.writeBytes(bytes, to: round % 3 == 0 ? spare : path)
                if round % 3 == 0 { rename(spare, path) }
                if round % 5 == 0 { truncate(path, (round % 7) * 1_000) }
            }
        }
        writer.start()
        defer { stop.value.store(true, ordering: .relaxed) }
        let limit = 200_000
        var answers: [Result<[UInt8], LoopError>] = []
        for batch in 1...10 {
            for _ in 0..<10 { Application.readFile(path, maximumSize: limit) { answers.append($0) } }
            #expect(LoopDriver.run(until: { answers.count == batch * 10 }))
        }
        stop.value.store(true, ordering: .relaxed)
        #expect(answers.count == 100)
        for answer in answers {
            switch answer {
            case .success(let bytes):
                #expect(bytes.count <= limit)
                #expect(bytes.allSatisfy { $0 == 0x61 || $0 == 0x62 || $0 == 0 }, "bytes nobody wrote")
            case .failure(let error):
                #expect(error.kind == .notFound || error.kind == .fileTooLarge, "\(error)")
            }
        }
    }

    /// `/dev/zero` says it holds 0 bytes and never ends: the read stops
    /// once past the limit, whatever the limit.
    @Test(arguments: [0, 1, 65_536, 3 << 20])
    func anEndlessDeviceStopsPastTheLimit(_ limit: Int) {
        guard case .failure(let error) = read("/dev/zero", maximumSize: limit) else {
            Issue.record("/dev/zero was read whole with a limit of \(limit)")
            return
        }
        #expect(error.kind == .fileTooLarge)
        #expect(error.description.contains("grew while read"))
    }

    /// A file that grows under the reads (another thread appends, and
    /// starts over past 1 MiB): each answer is what was there, up to the
    /// limit, or `fileTooLarge`.
    @Test func aFileGrowingUnderTheReadStopsAtTheLimit() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let path = world.path("growing.log")
        world.write("growing.log", "")
        let stop = StopFlag()
        let writer = Thread {
            let fd = open(path, O_WRONLY | O_APPEND)
            let chunk = [UInt8](repeating: 0x7A, count: 16_384)
            var size = 0
            while !stop.value.load(ordering: .relaxed) {
                size += chunk.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if size > 1 << 20 { ftruncate(fd, 0); size = 0 }
                stop.written.add(1, ordering: .relaxed)
            }
            close(fd)
        }
        writer.start()
        defer { stop.value.store(true, ordering: .relaxed) }
        // Until the writer went past the limit once (20 writes of 16 KiB).
        #expect(LoopDriver.run(until: { stop.written.load(ordering: .relaxed) > 20 }))
        let limit = 256 * 1024
        var reads = 0
        var tooLarge = 0
        // Until one read found the file past the limit (a read that finds
        // it short is a success), and 20 reads at least.
        while reads < 2_000, reads < 20 || tooLarge == 0 {
            reads += 1
            switch read(path, maximumSize: limit) {
            case .success(let bytes): #expect(bytes.count <= limit && bytes.allSatisfy { $0 == 0x7A })
            case .failure(let error): #expect(error.kind == .fileTooLarge, "\(error)"); tooLarge += 1
            case nil: break
            }
        }
        #expect(tooLarge > 0, "the file never went past the limit in \(reads) reads: the test proved nothing")
    }

    /// No limit at all (`Int.max`) is a limit like another: a file larger
    /// than the first buffer is read whole.
    @Test func theLargestLimitReadsAFileWhole() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let text = String(repeating: "z", count: 300_000)
        world.write("big.txt", text)
        #expect(try read(world.path("big.txt"), maximumSize: .max)?.get().count == text.utf8.count)
    }

    /// Named pipes without a writer: opening one for reading would wait
    /// for a writer, and each wait would hold one of libuv's four
    /// thread-pool threads (and the app's shutdown, which waits for every
    /// request). Each answers at once, and a read of a plain file after
    /// four of them still gets its thread.
    @Test func aFIFOIsAnErrorAtOnceAndHoldsNoThreadPoolThread() throws {
        let world = try KernelFileWorld()
        defer { world.tearDown() }
        let fifos = (0..<4).map { world.path("fifo-\($0)") }
        for fifo in fifos { #expect(mkfifo(fifo, 0o600) == 0, "mkfifo: errno \(errno)") }
        world.write("plain.txt", "plain\n")
        var answers: [Result<[UInt8], LoopError>] = []
        for fifo in fifos { Application.readFile(fifo) { answers.append($0) } }
        var plain: Result<[UInt8], LoopError>?
        Application.readFile(world.path("plain.txt")) { plain = $0 }
        let answered = LoopDriver.run(until: { plain != nil && answers.count == fifos.count }, timeout: .seconds(5))
        #expect(answered, "readFile of a FIFO without a writer waits for one: \(answers.count) FIFO answers, the plain file \(plain == nil ? "starved" : "read")")
        if !answered {
            // Let the waiting opens go (a writer that opens and closes),
            // so that the loop can be torn down.
            for fifo in fifos {
                let fd = open(fifo, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
            LoopDriver.run(until: { plain != nil && answers.count == fifos.count })
        }
        #expect(try plain?.get() == Array("plain\n".utf8))
        for answer in answers {
            guard case .failure(let error) = answer else {
                Issue.record("a FIFO was read whole: \(answer)")
                continue
            }
            #expect(error.name == "ESPIPE", "\(error)")
            #expect(error.description.contains(world.path("fifo-")), "\(error)")
        }
    }

    // MARK: Helpers

    private final class WeakToken {
        weak var token: Token?
        init(_ token: Token) { self.token = token }
    }

    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
        /// How many writes the writer made.
        let written = Atomic<Int>(0)
    }

    /// How many of this process's descriptors are open on `path`.
    private static func descriptors(of path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }

    private nonisolated static func writeBytes(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
