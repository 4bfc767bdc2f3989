@testable import ComposeApp
import Foundation
import Testing

/// Where inspection sockets live and who may use them. The tests cannot
/// switch users: "another user" is an injected uid that is not ours (the
/// checks compare the owner and the peer with the uid they are given).
@Suite struct InspectionDirectoryTests {
    static let ourUID = geteuid()
    static let someoneElse = geteuid() == 4242 ? 4243 : 4242

    @Test func theDirectoryIsUnderXDGRuntimeDirElseAPerUserOneInTmp() {
        #expect(InspectionDirectory.path(uid: 1000, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/compose")
        #expect(InspectionDirectory.path(uid: 1000, environment: ["XDG_RUNTIME_DIR": "/run/user/1000/"]) == "/run/user/1000/compose")
        #expect(InspectionDirectory.path(uid: 1000, environment: ["XDG_RUNTIME_DIR": "relative"]) == "/tmp/compose-1000")
        #expect(InspectionDirectory.path(uid: 1000, environment: [:]) == "/tmp/compose-1000")
    }

    @Test func preparingMakesTheDirectoryOwnerOnly() throws {
        try withSocketDirectory { parent in
            let directory = parent + "/compose"
            try InspectionDirectory.prepare(directory, uid: Self.ourUID)
            #expect(fileMode(directory).map { $0 & 0o777 } == 0o700)
            // Preparing again accepts it as it is.
            try InspectionDirectory.prepare(directory, uid: Self.ourUID)
        }
    }

    @Test func aDirectoryWithWiderPermissionsIsRefused() throws {
        try withSocketDirectory { parent in
            let directory = parent + "/compose"
            #expect(mkdir(directory, 0o755) == 0)
            #expect(chmod(directory, 0o755) == 0)
            let error = try #require(throws: LoopError.self) { try InspectionDirectory.prepare(directory, uid: Self.ourUID) }
            #expect(error.kind == .permissionDenied)
            #expect(error.description.contains("mode 0755; it must be 0700"), "\(error)")
        }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        try withSocketDirectory { parent in
            let directory = parent + "/compose"
            #expect(mkdir(directory, 0o700) == 0)
            // Ours, but the app runs as `someoneElse`: the owner differs.
            let error = try #require(throws: LoopError.self) { try InspectionDirectory.check(directory, uid: UInt32(Self.someoneElse)) }
            #expect(error.kind == .permissionDenied)
            #expect(error.description.contains("belongs to uid \(Self.ourUID), not to this user (uid \(Self.someoneElse))"), "\(error)")
        }
    }

    @Test func aSymbolicLinkInsteadOfTheDirectoryIsRefused() throws {
        try withSocketDirectory { parent in
            let target = parent + "/elsewhere"
            #expect(mkdir(target, 0o700) == 0)
            #expect(symlink(target, parent + "/compose") == 0)
            let error = try #require(throws: LoopError.self) { try InspectionDirectory.prepare(parent + "/compose", uid: Self.ourUID) }
            #expect(error.description.contains("is not a directory"), "\(error)")
        }
    }

    @Test func aSocketWithWiderPermissionsOrAnotherOwnerIsRefusedByTheClientCheck() throws {
        try withSocketDirectory { directory in
            let path = directory + "/app.1.sock"
            try makeStaleSocketFile(path)
            #expect(chmod(path, 0o600) == 0)
            try InspectionDirectory.checkSocket(path, uid: Self.ourUID)
            let other = try #require(throws: LoopError.self) { try InspectionDirectory.checkSocket(path, uid: UInt32(Self.someoneElse)) }
            #expect(other.description.contains("belongs to uid"), "\(other)")
            #expect(chmod(path, 0o666) == 0)
            let wide = try #require(throws: LoopError.self) { try InspectionDirectory.checkSocket(path, uid: Self.ourUID) }
            #expect(wide.description.contains("mode 0666; it must be 0600"), "\(wide)")
        }
    }

    @Test func socketNamesCarryTheAppAndItsPid() {
        #expect(InspectionDirectory.socketName(app: "ComposeChat", pid: 4242) == "ComposeChat.4242.sock")
        #expect(InspectionDirectory.socketName(app: "my app/1.0", pid: 7) == "my_app_1_0.7.sock")
        #expect(InspectionDirectory.socketName(app: "", pid: 7) == "app.7.sock")
        #expect(InspectionDirectory.socketName(app: String(repeating: "a", count: 100), pid: 7).count == 40 + ".7.sock".count)
        #expect(InspectionDirectory.parse(socketName: "ComposeChat.4242.sock")! == ("ComposeChat", 4242))
        #expect(InspectionDirectory.parse(socketName: "a.b.12.sock")! == ("a.b", 12))
        #expect(InspectionDirectory.parse(socketName: "nopid.sock") == nil)
        #expect(InspectionDirectory.parse(socketName: ".12.sock") == nil)
        #expect(InspectionDirectory.parse(socketName: "app.-3.sock") == nil)
        #expect(InspectionDirectory.parse(socketName: "app.12.txt") == nil)
    }

    @Test func staleSocketsOfDeadProcessesAreRemovedAndTheRestKept() throws {
        try withSocketDirectory { directory in
            let dead: Int32 = 999_999
            let alive = getpid()
            try makeStaleSocketFile(directory + "/gone.\(dead).sock")
            try makeStaleSocketFile(directory + "/running.\(alive).sock")
            try makeStaleSocketFile(directory + "/unrelated.sock")
            // Not a socket: never touched, whatever its name says.
            #expect(FileManager.default.createFile(atPath: directory + "/file.\(dead).sock", contents: Data()))
            let removed = InspectionDirectory.removeStaleSockets(in: directory, uid: Self.ourUID) { $0 == alive }
            #expect(removed == ["gone.\(dead).sock"])
            let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(left == ["file.\(dead).sock", "running.\(alive).sock", "unrelated.sock"])
        }
    }

    @Test func staleSocketsOfAnotherUserAreLeftAlone() throws {
        try withSocketDirectory { directory in
            try makeStaleSocketFile(directory + "/gone.999999.sock")
            let removed = InspectionDirectory.removeStaleSockets(in: directory, uid: UInt32(Self.someoneElse)) { _ in false }
            #expect(removed.isEmpty)
        }
    }

    @Test func processLivenessComesFromKill() {
        #expect(InspectionDirectory.processIsAlive(getpid()))
        #expect(!InspectionDirectory.processIsAlive(Int32.max))
    }

    @Test func onlyThePeerOfTheAppsOwnUserMayInspect() {
        let peer = PeerCredentials(pid: 10, uid: 1000, gid: 1000)
        #expect(peer.mayInspect(appUID: 1000))
        #expect(!peer.mayInspect(appUID: 1001))
        #expect(!PeerCredentials(pid: 1, uid: 0, gid: 0).mayInspect(appUID: 1000))
    }
}
