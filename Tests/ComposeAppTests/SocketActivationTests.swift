@_spi(Testing) import ComposeApp
import Foundation
import Testing

/// Reading `LISTEN_FDS` / `LISTEN_PID` / `LISTEN_FDNAMES`: pure, no
/// descriptor is touched.
@Suite struct LaunchEnvironmentTests {
    @Test func theSocketsStartAtDescriptor3AndTakeTheirNamesInOrder() {
        let launch = LaunchEnvironment(
            variables: ["LISTEN_FDS": "2", "LISTEN_PID": "42", "LISTEN_FDNAMES": "web:admin"],
            processID: 42, parentProcessID: 1
        )
        #expect(launch.inheritedSockets == [InheritedSocket(fd: 3, name: "web"), InheritedSocket(fd: 4, name: "admin")])
        #expect(launch.notes.isEmpty)
        #expect(launch.workerIndex == nil)
    }

    @Test func socketsMeantForAnotherProcessAreIgnoredWithANote() {
        let launch = LaunchEnvironment(variables: ["LISTEN_FDS": "1", "LISTEN_PID": "41"], processID: 42, parentProcessID: 1)
        #expect(launch.inheritedSockets.isEmpty)
        #expect(launch.notes.count == 1)
        #expect(launch.notes.first?.contains("process 41") == true)
        let noPID = LaunchEnvironment(variables: ["LISTEN_FDS": "1"], processID: 42, parentProcessID: 1)
        #expect(noPID.inheritedSockets.isEmpty)
        #expect(noPID.notes.first?.contains("LISTEN_PID") == true)
    }

    @Test func namesThatDoNotCountOnePerSocketAreDroppedAndEmptyNamesAreNone() {
        let wrongCount = LaunchEnvironment(
            variables: ["LISTEN_FDS": "2", "LISTEN_PID": "7", "LISTEN_FDNAMES": "only"],
            processID: 7, parentProcessID: 1
        )
        #expect(wrongCount.inheritedSockets == [InheritedSocket(fd: 3), InheritedSocket(fd: 4)])
        #expect(wrongCount.notes.first?.contains("LISTEN_FDNAMES") == true)
        let emptyName = LaunchEnvironment(
            variables: ["LISTEN_FDS": "2", "LISTEN_PID": "7", "LISTEN_FDNAMES": ":admin"],
            processID: 7, parentProcessID: 1
        )
        #expect(emptyName.inheritedSockets == [InheritedSocket(fd: 3), InheritedSocket(fd: 4, name: "admin")])
    }

    @Test func aMalformedCountIsIgnoredWithANote() {
        for count in ["x", "-1", ""] {
            let launch = LaunchEnvironment(variables: ["LISTEN_FDS": count, "LISTEN_PID": "7"], processID: 7, parentProcessID: 1)
            #expect(launch.inheritedSockets.isEmpty, "\(count)")
            #expect(launch.notes.count == 1, "\(count)")
        }
    }

    @Test func aWorkerTakesTheSocketsItsParentPassesOnButNoOtherProcesss() {
        let variables = [
            "LISTEN_FDS": "1", "LISTEN_PID": "40",
            "COMPOSE_WORKER": "1", "COMPOSE_WORKER_PARENT": "40",
        ]
        let worker = LaunchEnvironment(variables: variables, processID: 50, parentProcessID: 40)
        #expect(worker.workerIndex == 1)
        #expect(worker.workerParentID == 40)
        #expect(worker.inheritedSockets == [InheritedSocket(fd: 3)])
        // Reparented: the sockets were the parent's, not this process's.
        let orphan = LaunchEnvironment(variables: variables, processID: 50, parentProcessID: 1)
        #expect(orphan.inheritedSockets.isEmpty)
        let notAWorker = LaunchEnvironment(variables: ["LISTEN_FDS": "1", "LISTEN_PID": "40"], processID: 50, parentProcessID: 40)
        #expect(notAWorker.inheritedSockets.isEmpty)
    }

    @Test func aWorkerVariableThatIsNoIndexIsANote() {
        let launch = LaunchEnvironment(variables: ["COMPOSE_WORKER": "yes"], processID: 7, parentProcessID: 1)
        #expect(launch.workerIndex == nil)
        #expect(launch.notes.count == 1)
    }
}

/// Servers listening on inherited sockets, on a live loop: the launch
/// environment is injected into the test's context, the sockets are made
/// by the test as a launcher would.
@MainActor
@Suite(.serialized, .liveLoop) struct SocketActivationTests {
    var context: AppContext {
        get throws { try #require(AppContext.current) }
    }

    /// Makes `sockets` the context's inherited sockets, in this order.
    func inherit(_ sockets: [(TestSocket, String?)]) throws {
        try context.launchEnvironment = LaunchEnvironment(inheritedSockets: sockets.map { InheritedSocket(fd: $0.0.fd, name: $0.1) })
    }

    /// Connects to 127.0.0.1:`port` and echoes `text` through `server`'s
    /// connections; returns what came back.
    func echo(_ text: String, port: UInt16) -> String {
        let client = ClientProbe(port: port)
        #expect(LoopDriver.run(until: { client.connection != nil || client.failure != nil }))
        client.connection?.write(Array(text.utf8))
        #expect(LoopDriver.run(until: { client.received.count >= text.utf8.count || client.failure != nil }))
        client.connection?.close()
        return String(decoding: client.received, as: UTF8.self)
    }

    @Test func anEchoServerListensOnTheInheritedSocketAndServesOnIt() throws {
        let inherited = try TestSocket.tcp()
        try inherit([(inherited, nil)])
        try withEchoServer { echo, _ in
            #expect(echo.listener.isListening)
            #expect(echo.listener.port == inherited.port)
            #expect(echo.listener.inheritedSocket == InheritedSocket(fd: inherited.fd))
            #expect(self.echo("activated\n", port: inherited.port) == "activated\n")
        }
    }

    @Test func aServerOnAPortAnotherSocketHoldsNeverBindsWhenItInheritsOne() throws {
        let held = try TestSocket.tcp()
        let inherited = try TestSocket.tcp()
        try inherit([(inherited, nil)])
        let server = TCPServer(port: held.port)
        try server.listen()
        defer { server.close() }
        #expect(server.port == inherited.port)
        #expect(try context.unclaimedInheritedSockets.isEmpty)
    }

    @Test func aServerTakesTheSocketNamedAfterItsActivationNameOrItsPortElseTheFirstLeft() throws {
        let first = try TestSocket.tcp()
        let admin = try TestSocket.tcp()
        let byPort = try TestSocket.tcp()
        try inherit([(first, "web"), (admin, "admin"), (byPort, "8125")])
        let named = TCPServer(port: 0, activationName: "admin")
        let numbered = TCPServer(port: 8125)
        let unnamed = TCPServer(port: 0)
        for server in [named, numbered, unnamed] { try server.listen() }
        defer { for server in [named, numbered, unnamed] { server.close() } }
        #expect(named.port == admin.port)
        #expect(numbered.port == byPort.port)
        #expect(unnamed.port == first.port)
        #expect(unnamed.inheritedSocket?.name == "web")
    }

    @Test func aServerWithANameNoSocketHasBindsAsUsual() throws {
        let other = try TestSocket.tcp()
        try inherit([(other, "web")])
        let server = TCPServer(port: 0, activationName: "admin")
        try server.listen()
        defer { server.close() }
        #expect(server.inheritedSocket == nil)
        #expect(server.port != other.port)
        #expect(try context.unclaimedInheritedSockets == [InheritedSocket(fd: other.fd, name: "web")])
    }

    @Test func byOrderATCPServerSkipsAUnixSocketThatAUnixServerThenTakes() throws {
        try withSocketDirectory { directory in
            let path = directory + "/control.sock"
            let unix = try TestSocket.unix(path: path)
            let tcp = try TestSocket.tcp()
            try inherit([(unix, nil), (tcp, nil)])
            let web = TCPServer(port: 0)
            let control = UnixServer(path: directory + "/unused.sock")
            try web.listen()
            try control.listen()
            defer { web.close(); control.close() }
            #expect(web.inheritedSocket?.fd == tcp.fd)
            #expect(control.inheritedSocket?.fd == unix.fd)
            // It listens on the inherited socket's file, and made none.
            #expect(fileMode(directory + "/unused.sock") == nil)
        }
    }

    /// systemd's `FileDescriptorName=` on a TCP and a Unix socket of one
    /// service, listed in the other order than the servers are declared,
    /// plus a socket nobody names.
    @Test func aTCPAndAUnixSocketInheritedTogetherGoToTheServersNamingThemWhateverTheirOrder() throws {
        try withSocketDirectory { directory in
            let unix = try TestSocket.unix(path: directory + "/control.sock")
            let spare = try TestSocket.tcp()
            let tcp = try TestSocket.tcp()
            try inherit([(unix, "control"), (spare, "spare"), (tcp, "web")])
            let web = TCPServer(port: 0, activationName: "web")
            let control = UnixServer(path: directory + "/unused.sock", activationName: "control")
            try web.listen()
            try control.listen()
            defer { web.close(); control.close() }
            #expect(web.inheritedSocket == InheritedSocket(fd: tcp.fd, name: "web"))
            #expect(web.port == tcp.port)
            #expect(control.inheritedSocket == InheritedSocket(fd: unix.fd, name: "control"))
            #expect(fileMode(directory + "/unused.sock") == nil)
            #expect(try context.unclaimedInheritedSockets == [InheritedSocket(fd: spare.fd, name: "spare")])
        }
    }

    @Test func aUnixServerServesOnTheInheritedSocketAndLeavesItsFileAndDescriptorOnClose() throws {
        try withSocketDirectory { directory in
            let path = directory + "/echo.sock"
            let inherited = try TestSocket.unix(path: path)
            try inherit([(inherited, path)])
            let tree = ComponentTree(UnixEchoServer(listener: UnixServer(path: path)))
            tree.activate()
            let server = try #require(tree.root.value(as: UnixEchoServer.self))
            #expect(server.listener.inheritedSocket?.fd == inherited.fd)
            var result: Result<TCPConnection, LoopError>?
            TCPConnection.connect(unixPath: path) { result = $0 }
            #expect(LoopDriver.run(until: { result != nil }))
            let connection = try #require(try result?.get())
            var received: [UInt8] = []
            connection += { chunk in chunk.withUnsafeBytes { received.append(contentsOf: $0) } }
            connection.start()
            connection.write("through systemd's socket\n")
            #expect(LoopDriver.run(until: { received.count >= 25 }))
            #expect(String(decoding: received, as: UTF8.self) == "through systemd's socket\n")
            connection.abort()
            tree.destroy()
            LoopDriver.settle()
            #expect(fileMode(path).map { $0 & S_IFMT } == S_IFSOCK)
            #expect(inherited.isOpen)
        }
    }

    @Test func aServerStartedAgainListensOnTheSameInheritedSocketWhichClosingLeftOpen() throws {
        let inherited = try TestSocket.tcp()
        try inherit([(inherited, nil)])
        let context = try self.context
        try withEchoServer { echo, _ in
            echo.listener.stop()
            LoopDriver.settle()
            #expect(!echo.listener.isListening)
            #expect(inherited.isOpen)
            #expect(context.unclaimedInheritedSockets.count == 1)
            echo.listener.start()
            #expect(echo.listener.inheritedSocket?.fd == inherited.fd)
            #expect(self.echo("again\n", port: inherited.port) == "again\n")
        }
    }

    @Test(arguments: [
        ("udp", "a UDP (IPv4 datagram) socket", LoopError.Code.inheritedSocketMismatch),
        ("idle", "a TCP (IPv4) socket that is not listening", .inheritedSocketMismatch),
    ])
    func aSocketOfTheWrongKindIsAnErrorNamingTheDescriptorAndWhatWasExpected(kind: String, found: String, code: LoopError.Code) throws {
        let socket = try kind == "udp" ? TestSocket.udp() : TestSocket.tcp(listening: false)
        try inherit([(socket, nil)])
        let server = TCPServer(port: 0)
        #expect {
            try server.listen()
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            return error.kind == code
                && error.description.contains("fd \(socket.fd)")
                && error.description.contains(found)
                && error.description.contains("a listening TCP socket")
        }
        #expect(!server.isListening)
        // Nothing was claimed: it is still reported as left over.
        #expect(try context.unclaimedInheritedSockets.count == 1)
    }

    @Test func aDescriptorThatIsNoSocketIsAnErrorSayingWhatItIs() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        try context.launchEnvironment = LaunchEnvironment(inheritedSockets: [InheritedSocket(fd: ends[0], name: "web")])
        let server = TCPServer(port: 0, activationName: "web")
        #expect {
            try server.listen()
        } throws: { error in
            guard let error = error as? LoopError else { return false }
            return error.kind == .inheritedSocketMismatch && error.name == "ENOTSOCK" && error.description.contains("a pipe")
        }
    }

    @Test func socketsNoServerTookAreReportedNamingEachOne() throws {
        let used = try TestSocket.tcp()
        let spare = try TestSocket.udp()
        try inherit([(used, nil), (spare, "metrics")])
        var diagnostics: [Diagnostic] = []
        try context.diagnostics += { diagnostics.append($0) }
        try withEchoServer { _, _ in
            try context.reportUnclaimedInheritedSockets()
        }
        #expect(diagnostics.map(\.code) == [.unclaimedInheritedSocket])
        let message = diagnostics.first?.message ?? ""
        #expect(message.contains("fd \(spare.fd) (\"metrics\")"), "\(message)")
        #expect(message.contains("UDP"), "\(message)")
        #expect(!message.contains("fd \(used.fd),"), "\(message)")
    }
}

/// `SO_REUSEPORT`: several servers on one port.
@MainActor
@Suite(.serialized, .liveLoop) struct ReusePortTests {
    @Test func twoServersShareAPortWithReusePortAndBothServe() throws {
        let port = try TestSocket.freePort()
        let first = TCPServer(port: port, reusePort: true)
        let second = TCPServer(port: port, reusePort: true)
        try first.listen()
        try second.listen()
        defer { first.close(); second.close() }
        #expect(first.port == port && second.port == port)
        var accepted = [0, 0]
        first += { _ in accepted[0] += 1 }
        second += { _ in accepted[1] += 1 }
        // The kernel spreads connections by a hash of the client's address
        // and port: enough clients reach both.
        var clients: [ClientProbe] = []
        for _ in 0..<64 { clients.append(ClientProbe(port: port)) }
        #expect(LoopDriver.run(until: { accepted[0] + accepted[1] == 64 }))
        #expect(accepted[0] > 0 && accepted[1] > 0, "\(accepted)")
    }

    @Test func withoutReusePortTheSecondServerIsAddressInUse() throws {
        let port = try TestSocket.freePort()
        let first = TCPServer(port: port)
        try first.listen()
        defer { first.close() }
        let second = TCPServer(port: port)
        #expect {
            try second.listen()
        } throws: { error in
            (error as? LoopError)?.kind == .addressInUse
        }
        // One side asking is not enough: both must.
        let third = TCPServer(port: port, reusePort: true)
        #expect(throws: LoopError.self) { try third.listen() }
    }

    @Test func inAWorkerEveryServerReusesItsPort() throws {
        let context = try #require(AppContext.current)
        context.launchEnvironment = LaunchEnvironment(workerIndex: 0, workerParentID: getppid())
        let port = try TestSocket.freePort()
        let first = TCPServer(port: port)
        let second = TCPServer(port: port)
        try first.listen()
        try second.listen()
        defer { first.close(); second.close() }
        #expect(first.isListening && second.isListening)
        #expect(context.workerIndex == 0)
    }
}
