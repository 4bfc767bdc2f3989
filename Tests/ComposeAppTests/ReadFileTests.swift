@_spi(Testing) import ComposeApp
import ComposeTesting
import Testing

/// `readFile` reads on libuv's thread pool (real files) or the test's
/// simulated files, with the same answers.
@MainActor
@Suite(.serialized, .liveLoop) struct ReadFileTests {
    /// Reads `name` in `world`'s app and runs the app until the answer.
    private func read(_ name: String, in world: any FileWorld, maximumSize: Int = 1 << 20) -> Result<[UInt8], LoopError>? {
        var answer: Result<[UInt8], LoopError>?
        world.perform {
            Application.readFile(world.path(name), maximumSize: maximumSize) { answer = $0 }
        }
        #expect(world.run(until: { answer != nil }))
        return answer
    }

    @Test(arguments: FileWorldKind.allCases)
    func aFileIsReadWhole(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        let text = String(repeating: "0123456789abcdef", count: 10_000) + "end\n"
        world.write("big.txt", text)
        world.write("empty.txt", "")
        let bytes = try #require(try read("big.txt", in: world)?.get())
        #expect(String(decoding: bytes, as: UTF8.self) == text)
        #expect(try read("empty.txt", in: world)?.get() == [])
    }

    @Test(arguments: FileWorldKind.allCases)
    func aFileOverTheLimitIsAnErrorNamingTheFileItsSizeAndTheLimit(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.write("motd.txt", String(repeating: "x", count: 2_000))
        guard case .failure(let error) = read("motd.txt", in: world, maximumSize: 1_000) else {
            Issue.record("a file of 2000 bytes was read with a limit of 1000")
            return
        }
        #expect(error.kind == .fileTooLarge)
        #expect(error.description.contains(world.path("motd.txt")))
        #expect(error.description.contains("2000 bytes"))
        #expect(error.description.contains("limit of 1000 bytes"))
        // At the limit exactly, it is read.
        #expect(try read("motd.txt", in: world, maximumSize: 2_000)?.get().count == 2_000)
    }

    @Test(arguments: FileWorldKind.allCases)
    func aMissingFileOrADirectoryIsAnErrorNamingThePath(_ kind: FileWorldKind) throws {
        let world = try kind.make()
        defer { world.tearDown() }
        world.markMissing("none.txt")
        guard case .failure(let missing) = read("none.txt", in: world) else {
            Issue.record("a missing file was read")
            return
        }
        #expect(missing.kind == .notFound)
        #expect(missing.description.contains(world.path("none.txt")))

        world.makeDirectory("sub")
        guard case .failure(let directory) = read("sub", in: world) else {
            Issue.record("a directory was read")
            return
        }
        #expect(directory.kind == .isDirectory)
        #expect(directory.description.contains(world.path("sub")))
    }

    @Test func theAsyncFormReturnsTheBytesOrThrows() async throws {
        let app = TestApp(root: Idle())
        app.files.write("/etc/app/motd.txt", "hello\n")
        let context = app.context
        let read = Task { try await context.readFile("/etc/app/motd.txt") }
        let tooLarge = Task { try await context.readFile("/etc/app/motd.txt", maximumSize: 3) }
        await app.settle()
        #expect(try await read.value == Array("hello\n".utf8))
        await #expect(throws: LoopError.self) { try await tooLarge.value }
    }

    private struct Idle: Component {
        var observers: Void { None }
    }
}
