@_spi(Testing) import ComposeApp
import ComposeTesting
import Foundation
import Testing

/// A server of echo components on a Unix domain socket.
struct UnixEchoServer: Component {
    let listener: UnixServer
    let clients = InstanceComponent<EchoComponent>()
    var observers: Void {
        listener += { connection in
            clients.add { EchoComponent(connection: connection) }
        }
        clients.forward(\.connection.didClose) += { id, _ in
            clients.remove(id)
        }
    }
}

/// A fresh directory under /tmp for one test's socket files (short: a
/// socket path holds at most 107 bytes), removed by `body`'s end.
func withSocketDirectory(_ body: (String) throws -> Void) throws {
    let directory = "/tmp/compose-unix-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try body(directory)
}

/// The file type and permission bits at `path` (`lstat`), or `nil` if
/// there is nothing.
func fileMode(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode : nil
}

/// Leaves a socket file at `path` as a crashed process would: bound,
/// listened on, closed, never unlinked.
func makeStaleSocketFile(_ path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #expect(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    #expect(bound == 0)
    #expect(listen(fd, 1) == 0)
}

@MainActor
@Suite(.serialized, .liveLoop) struct UnixSocketTests {
    /// Connects to `path`, echoes `text` through it and returns what came
    /// back and the two ends' remote addresses.
    func echo(_ text: String, at path: String, server: UnixEchoServer) throws -> (String, client: String, server: String) {
        var result: Result<TCPConnection, LoopError>?
        TCPConnection.connect(unixPath: path) { result = $0 }
        #expect(LoopDriver.run(until: { result != nil }))
        let connection = try #require(try result?.get())
        defer { connection.abort() }
        var received: [UInt8] = []
        connection += { chunk in chunk.withUnsafeBytes { received.append(contentsOf: $0) } }
        connection.start()
        connection.write(text)
        #expect(LoopDriver.run(until: { received.count >= text.utf8.count && server.clients.count == 1 }))
        let accepted = server.clients.first { _ in true }?.component.connection.remoteAddress ?? "none"
        return (String(decoding: received, as: UTF8.self), connection.remoteAddress, accepted)
    }

    /// Runs `body` with an active UnixEchoServer on `path`.
    func withServer(_ listener: UnixServer, _ body: (UnixEchoServer) throws -> Void) throws {
        let tree = ComponentTree(UnixEchoServer(listener: listener))
        tree.activate()
        defer { tree.destroy(); LoopDriver.settle() }
        try body(try #require(tree.root.value(as: UnixEchoServer.self)))
    }

    @Test func bytesEchoOverAUnixSocketAndTheAddressesNameThePath() throws {
        try withSocketDirectory { directory in
            let path = directory + "/echo.sock"
            try withServer(UnixServer(path: path)) { server in
                #expect(server.listener.isListening)
                let (echoed, client, accepted) = try echo("hello over a socket file\n", at: path, server: server)
                #expect(echoed == "hello over a socket file\n")
                #expect(client == "unix:\(path)")
                #expect(accepted == "unix:\(path)")
            }
        }
    }

    @Test func theSocketFileIsOnlyTheOwnersUnlessAskedOtherwise() throws {
        try withSocketDirectory { directory in
            let owner = UnixServer(path: directory + "/owner.sock")
            try owner.listen()
            defer { owner.close() }
            #expect(fileMode(owner.path).map { $0 & S_IFMT } == S_IFSOCK)
            #expect(fileMode(owner.path).map { $0 & 0o7777 } == 0o600)
            let group = UnixServer(path: directory + "/group.sock", permissions: 0o660)
            try group.listen()
            defer { group.close() }
            #expect(fileMode(group.path).map { $0 & 0o7777 } == 0o660)
        }
    }

    @Test func aStaleSocketFileFromACrashedRunIsReplaced() throws {
        try withSocketDirectory { directory in
            let path = directory + "/stale.sock"
            try makeStaleSocketFile(path)
            #expect(fileMode(path).map { $0 & S_IFMT } == S_IFSOCK)
            try withServer(UnixServer(path: path)) { server in
                #expect(server.listener.isListening)
                let (echoed, _, _) = try echo("still there?", at: path, server: server)
                #expect(echoed == "still there?")
            }
        }
    }

    @Test func aSocketSomeoneListensOnIsAnAddressInUseNamingThePath() throws {
        try withSocketDirectory { directory in
            let path = directory + "/live.sock"
            try withServer(UnixServer(path: path)) { server in
                let second = UnixServer(path: path)
                #expect {
                    try second.listen()
                } throws: { error in
                    guard let error = error as? LoopError else { return false }
                    return error.kind == .addressInUse && error.description.contains(path)
                }
                #expect(!second.isListening)
                // The first server's file was not touched: it still answers.
                let (echoed, _, _) = try echo("first", at: path, server: server)
                #expect(echoed == "first")
            }
        }
    }

    @Test func aPathThatIsNotASocketIsNeverUnlinked() throws {
        try withSocketDirectory { directory in
            let path = directory + "/notes.txt"
            try "keep me".write(toFile: path, atomically: false, encoding: .utf8)
            let server = UnixServer(path: path)
            var reported: [LoopError] = []
            server.errors += { reported.append($0) }
            server.start()
            #expect(!server.isListening)
            #expect(reported.map(\.kind) == [.alreadyExists])
            #expect(reported.first?.description.contains("\(path), which is not a socket") == true)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
    }

    @Test func closingTheServerUnlinksItsSocketFile() throws {
        try withSocketDirectory { directory in
            let server = UnixServer(path: directory + "/gone.sock")
            try server.listen()
            #expect(fileMode(server.path) != nil)
            server.close()
            LoopDriver.settle()
            #expect(fileMode(server.path) == nil)
            // Nobody listens any more, and there is no file to find.
            var result: Result<TCPConnection, LoopError>?
            TCPConnection.connect(unixPath: server.path) { result = $0 }
            #expect(LoopDriver.run(until: { result != nil }))
            #expect(throws: LoopError.self) { try result?.get() }
            if case .failure(let error) = result { #expect(error.kind == .notFound) }
        }
    }

    @Test func aPathLongerThanASocketAddressHoldsIsRefusedNotCutShort() throws {
        let path = "/tmp/" + String(repeating: "x", count: 120)
        #expect {
            try UnixServer(path: path).listen()
        } throws: { error in
            (error as? LoopError)?.kind == .invalidArgument
        }
        #expect(fileMode(String(path.prefix(107))) == nil)
    }
}

@MainActor
@Suite struct SimulatedUnixSocketTests {
    /// Listens on and connects to a Unix socket when it appears, writing
    /// down how that went.
    struct Dialer: Component {
        let listener = UnixServer(path: "/tmp/compose-simulated.sock")
        let outcome = Journal()
        var observers: Void {
            listener.errors += { error in outcome.entries.append("listen: \(error.kind)") }
            didAppear += {
                TCPConnection.connect(unixPath: "/tmp/compose-simulated.sock") { result in
                    if case .failure(let error) = result { outcome.entries.append("connect: \(error.kind): \(error)") }
                }
            }
        }
    }

    @Test func aTestContextSaysUnixSocketsAreNotSimulatedYet() throws {
        let app = TestApp(root: Dialer())
        let dialer = try #require(app.root(as: Dialer.self))
        #expect(dialer.outcome.entries.count == 2)
        #expect(dialer.outcome.entries.contains("listen: noEventLoop"))
        #expect(dialer.outcome.entries.contains { $0.hasPrefix("connect: noEventLoop") && $0.contains("not simulated in a test context yet") })
        #expect(fileMode("/tmp/compose-simulated.sock") == nil)
    }
}
