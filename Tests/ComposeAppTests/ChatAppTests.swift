import ComposeApp
import ComposeTesting
import Testing
@testable import ComposeChat

/// The chat example as a whole app on a test context: simulated clients on
/// port 7070, virtual time. No socket, no process, no waiting.
@MainActor
@Suite struct ChatAppTests {
    static let greeting = ["Welcome to Compose chat!", "What is your name?"]

    /// A client that gave its name and is in the lobby.
    func member(_ name: String, of app: TestApp) throws -> TestPeer {
        let peer = try app.connect(port: 7070)
        #expect(peer.readLines() == Self.greeting)
        peer.write("\(name)\n")
        #expect(peer.readLines() == ["Hello, \(name)! Type /join ROOM, /who or /quit."])
        return peer
    }

    @Test func twoClientsJoinARoomAndTalk() throws {
        let app = TestApp(ChatApp.self)
        let ada = try member("ada", of: app)
        let bob = try member("bob", of: app)
        ada.write("/join lab\n")
        #expect(ada.readLines() == ["You are in lab. Type to talk, /leave to go back."])
        bob.write("/join lab\n")
        #expect(bob.readLines() == ["You are in lab. Type to talk, /leave to go back."])
        #expect(ada.readLines() == ["* bob joined lab"])

        ada.write("hello bob\n")
        #expect(bob.readLines() == ["<ada> hello bob"])
        #expect(ada.readLines() == [])
        bob.write("/who\n")
        #expect(bob.readLines() == ["Here: ada, bob"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aSilentClientIsDisconnectedAfterTheIdleTimeoutWhileAnActiveOneStays() throws {
        let app = TestApp(ChatApp.self)
        let active = try member("ada", of: app)
        let silent = try app.connect(port: 7070)
        #expect(silent.readLines() == Self.greeting)
        for _ in 0..<3 {
            app.advance(by: .seconds(100))
            active.write("/who\n")
            #expect(active.readLines() == ["Here: ada"])
        }
        #expect(silent.readLines() == ["You have been idle for too long. Bye!"])
        #expect(silent.isClosedByApp)
        #expect(!active.isClosedByApp)
        #expect(app.now == .seconds(300))
    }

    @Test func sigtermSaysGoodbyeToEveryClientAndExits0() throws {
        let app = TestApp(ChatApp.self)
        let ada = try member("ada", of: app)
        ada.write("/join lab\n")
        _ = ada.readLines()
        let stranger = try app.connect(port: 7070)
        _ = stranger.readLines()

        app.send(.terminate)
        for peer in [ada, stranger] {
            #expect(peer.readLines() == ["The server is shutting down. Goodbye!"])
            #expect(peer.isClosedByApp)
        }
        #expect(app.exitStatus == 0)
    }

    @Test func anUnknownCommandInTheLobbyGetsTheList() throws {
        let app = TestApp(ChatApp.self)
        let ada = try member("ada", of: app)
        ada.write("/dance\n")
        #expect(ada.readLines() == ["Commands: /join ROOM, /who, /quit"])
        ada.write("/quit\n")
        #expect(ada.readLines() == ["Bye!"])
        #expect(ada.isClosedByApp)
    }

    @Test func aClientThatVanishesLeavesTheRoomAndTheOthersAreTold() throws {
        let app = TestApp(ChatApp.self)
        let ada = try member("ada", of: app)
        let bob = try member("bob", of: app)
        ada.write("/join lab\n")
        bob.write("/join lab\n")
        _ = ada.readLines()
        _ = bob.readLines()

        bob.reset()
        #expect(ada.readLines() == ["* bob left lab"])
        ada.write("/who\n")
        #expect(ada.readLines() == ["Here: ada"])
        #expect(app.exitStatus == nil)
    }

    @Test func aNameThatIsTakenIsRefused() throws {
        let app = TestApp(ChatApp.self)
        _ = try member("ada", of: app)
        let other = try app.connect(port: 7070)
        _ = other.readLines()
        other.write("ada\n")
        #expect(other.readLines() == ["ada is taken. Another name?"])
    }
}
