import ComposeApp
import ComposeTesting
import Foundation
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

    /// ada and a second member, both in the room `lab`, with nothing left
    /// to read.
    func twoInLab(_ app: TestApp, second: String = "bob") throws -> (TestPeer, TestPeer) {
        let ada = try member("ada", of: app)
        let other = try member(second, of: app)
        for peer in [ada, other] {
            peer.write("/join lab\n")
            _ = peer.readLines()
        }
        _ = ada.readLines()
        return (ada, other)
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

    @Test func aShutdownDrainsEachMemberHearsTheGoodbyeLastThenTheSocketCloses() throws {
        let app = TestApp(ChatApp.self)
        let phases = Journal()
        app.context.shutdown.didChangePhase += { phases.entries.append("\($0)") }
        let (ada, bob) = try twoInLab(app)
        ada.write("see you\n")

        app.send(.terminate)
        #expect(bob.readLines() == ["<ada> see you", "The server is shutting down. Goodbye!"])   // no "* ada left lab" after it
        #expect(ada.readLines() == ["The server is shutting down. Goodbye!"])
        #expect(ada.isClosedByApp && bob.isClosedByApp)
        #expect(phases.entries == ["draining", "closing", "finished"])
        #expect(app.exitStatus == 0)
        #expect(app.now == .zero)
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

    /// `/leave` from a room named "lobby" answered "Back in the lobby.":
    /// the reply names the room left and the commands of the lobby.
    @Test func leavingARoomNamedLobbyNamesTheRoomLeft() throws {
        let app = TestApp(ChatApp.self)
        let ada = try member("ada", of: app)
        ada.write("/join lobby\n")
        #expect(ada.readLines() == ["You are in lobby. Type to talk, /leave to go back."])
        ada.write("/leave\n")
        #expect(ada.readLines() == ["You left lobby. Type /join ROOM, /who or /quit."])
        // Back where rooms are joined: a command of the lobby works.
        ada.write("/dance\n")
        #expect(ada.readLines() == ["Commands: /join ROOM, /who, /quit"])
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

    // MARK: A full room

    /// A chat whose rooms hold three members, with ada, bob and cy in lab.
    func fullLab(of app: TestApp) throws -> [TestPeer] {
        let members = try ["ada", "bob", "cy"].map { try member($0, of: app) }
        for peer in members {
            peer.write("/join lab\n")
            #expect(peer.readLines().first == "You are in lab. Type to talk, /leave to go back.")
        }
        for peer in members { _ = peer.readLines() }
        return members
    }

    static let smallRooms = ChatSettings(roomCapacity: 3)

    @Test func aMessageSentInAFullRoomReachesEveryOtherMemberExactlyOnce() throws {
        let app = TestApp(root: ChatApp(settings: Self.smallRooms))
        let lab = try fullLab(of: app)
        lab[0].write("hello, full house\n")
        #expect(lab[0].readLines() == [])
        #expect(lab[1].readLines() == ["<ada> hello, full house"])
        #expect(lab[2].readLines() == ["<ada> hello, full house"])
        lab[2].write("/who\n")
        #expect(lab[2].readLines() == ["Here: ada, bob, cy"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aJoinToAFullRoomIsRefusedAndTheClientStaysInTheLobby() throws {
        let app = TestApp(root: ChatApp(settings: Self.smallRooms))
        let lab = try fullLab(of: app)
        let dan = try member("dan", of: app)
        dan.write("/join lab\n")
        #expect(dan.readLines() == ["lab is full (3 members). Try another room."])
        for peer in lab { #expect(peer.readLines() == []) }

        // Still in the lobby: commands work, a plain line is not said anywhere.
        dan.write("/who\n")
        #expect(dan.readLines() == ["Here: ada, bob, cy, dan"])
        dan.write("let me in\n")
        #expect(dan.readLines() == ["Commands: /join ROOM, /who, /quit"])
        for peer in lab { #expect(peer.readLines() == []) }

        // Another room has room.
        dan.write("/join kitchen\n")
        #expect(dan.readLines() == ["You are in kitchen. Type to talk, /leave to go back."])
        let eve = try member("eve", of: app)
        eve.write("/join kitchen\n")
        _ = eve.readLines()
        #expect(dan.readLines() == ["* eve joined kitchen"])
        dan.write("anyone for tea?\n")
        #expect(eve.readLines() == ["<dan> anyone for tea?"])
        for peer in lab { #expect(peer.readLines() == []) }
    }

    @Test func whenAMemberLeavesAFullRoomTheNextJoinSucceeds() throws {
        let app = TestApp(root: ChatApp(settings: Self.smallRooms))
        let lab = try fullLab(of: app)
        let dan = try member("dan", of: app)
        dan.write("/join lab\n")
        #expect(dan.readLines() == ["lab is full (3 members). Try another room."])

        lab[1].write("/leave\n")
        #expect(lab[1].readLines() == ["You left lab. Type /join ROOM, /who or /quit."])
        dan.write("/join lab\n")
        #expect(dan.readLines() == ["You are in lab. Type to talk, /leave to go back."])
        #expect(lab[0].readLines() == ["* bob left lab", "* dan joined lab"])

        // Full again: bob cannot come back until someone goes, even abruptly.
        lab[1].write("/join lab\n")
        #expect(lab[1].readLines() == ["lab is full (3 members). Try another room."])
        lab[2].reset()
        #expect(lab[0].readLines() == ["* cy left lab"])
        lab[1].write("/join lab\n")
        #expect(lab[1].readLines() == ["You are in lab. Type to talk, /leave to go back."])
        #expect(dan.readLines() == ["* cy left lab", "* bob joined lab"])
    }

    /// The settings the chat reads from `arguments` (after the program's
    /// name), as `main()` would.
    func settings(_ arguments: String...) -> ChatSettings {
        ChatSettings(config: AppConfiguration(arguments: arguments, options: ChatSettings.options))
    }

    @Test func theRoomCapacityComesFromItsFlag() {
        #expect(settings().roomCapacity == 32)
        #expect(settings("--room-capacity", "5").roomCapacity == 5)
        #expect(settings("--room-capacity", "0").roomCapacity == 32)
        #expect(settings("--room-capacity", "many").roomCapacity == 32)
    }

    @Test func aLineOverTheLimitDisconnectsItsSenderWithAReasonAndTheRoomTalksOn() throws {
        let app = TestApp(ChatApp.self)
        let (ada, bob) = try twoInLab(app)
        // 4096 bytes pass; 5,000 without a newline do not.
        let longest = String(repeating: "a", count: 4096)
        bob.write(longest + "\n")
        #expect(ada.readLines() == ["<bob> " + longest])
        bob.write(String(repeating: "b", count: 5000))
        #expect(bob.readLines() == ["Line too long (more than 4096 bytes). Bye!"])
        #expect(bob.isClosedByApp)
        #expect(ada.readLines() == ["* bob left lab"])
        ada.write("/who\n")
        #expect(ada.readLines() == ["Here: ada"])
        #expect(!ada.isClosedByApp)
    }

    @Test func theMaximumLineLengthComesFromItsFlag() {
        #expect(settings().maxLineLength == 4096)
        #expect(settings("--max-line", "512").maxLineLength == 512)
        #expect(settings("--max-line", "0").maxLineLength == 4096)
    }

    // MARK: Commands and reloads

    @Test func anUnknownCommandInARoomGetsTheRoomsCommandsAndIsNotSaid() throws {
        let app = TestApp(ChatApp.self)
        let (ada, bob) = try twoInLab(app)
        ada.write("/dance\n")
        #expect(ada.readLines() == ["Commands: /leave, /who, /quit"])
        ada.write("/join kitchen\n")
        #expect(ada.readLines() == ["Commands: /leave, /who, /quit"])
        #expect(bob.readLines() == [])
        // Still in lab.
        ada.write("still here\n")
        #expect(bob.readLines() == ["<ada> still here"])
    }

    @Test func aHangupReloadsTheMessageOfTheDayAndKeepsServing() throws {
        let motd = FileManager.default.temporaryDirectory.appendingPathComponent("compose-chat-motd-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: motd) }
        try "Welcome, early birds.\n".write(to: motd, atomically: true, encoding: .utf8)
        let app = TestApp(root: ChatApp(settings: ChatSettings(motdPath: motd.path)))
        let early = try app.connect(port: 7070)
        #expect(early.readLines() == ["Welcome, early birds.", "What is your name?"])

        try "Maintenance at noon.\n".write(to: motd, atomically: true, encoding: .utf8)
        app.send(.hangup)
        let late = try app.connect(port: 7070)
        #expect(late.readLines() == ["Maintenance at noon.", "What is your name?"])

        // Still running, and still serving the client from before.
        #expect(!app.hasExited)
        early.write("ada\n")
        #expect(early.readLines() == ["Hello, ada! Type /join ROOM, /who or /quit."])
    }

    @Test func aNameThatIsTakenIsRefused() throws {
        let app = TestApp(ChatApp.self)
        _ = try member("ada", of: app)
        let other = try app.connect(port: 7070)
        _ = other.readLines()
        other.write("ada\n")
        #expect(other.readLines() == ["ada is taken. Another name?"])
    }

    @Test func aMemberWhoNeverReadsIsCutOffWithAReasonAndTheRoomGoesOn() throws {
        let app = TestApp(ChatApp.self)
        let (ada, carl) = try twoInLab(app, second: "carl")
        carl.stopReading(window: 16 * 1024)

        // 20,000 messages in one go: far more than carl's 256 KiB queue.
        ada.write(String(repeating: "can you hear me?\n", count: 20_000))
        #expect(carl.isResetByApp)                 // the hard limit: at once
        #expect(ada.readLines() == ["* carl left lab (too far behind: not reading)"])
        ada.write("/who\n")
        #expect(ada.readLines() == ["Here: ada"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func aMemberWhoStopsReadingInAQuietRoomIsCutOffAfterTheGracePeriod() throws {
        let app = TestApp(ChatApp.self)
        let (ada, carl) = try twoInLab(app, second: "carl")
        carl.stopReading(window: 16 * 1024)
        // ~100 KiB for carl: above a quarter of the 256 KiB limit (the
        // soft limit), under the limit itself; then the room goes quiet.
        ada.write(String(repeating: "still there?\n", count: 5_000))
        app.advance(by: .seconds(29))
        #expect(!carl.isClosedByApp)
        app.advance(by: .seconds(1))
        #expect(carl.isResetByApp)
        #expect(ada.readLines() == ["* carl left lab (too far behind: not reading)"])
        #expect(app.diagnostics.isEmpty)
    }

    @Test func sigtermWithAMemberWhoDoesNotReadStillExits0InTwoSeconds() throws {
        let app = TestApp(ChatApp.self)
        let (ada, carl) = try twoInLab(app, second: "carl")
        carl.stopReading(window: 16 * 1024)
        ada.write(String(repeating: "still there?\n", count: 5_000))   // ~100 KiB for carl, under the limit
        #expect(!carl.isClosedByApp)

        app.send(.terminate)
        app.runUntilExit()
        #expect(app.exitStatus == 0)                // not the deadline's 3
        #expect(app.now <= .seconds(2))             // TCPConnection.closeFlushTimeout
        #expect(ada.readLines().last == "The server is shutting down. Goodbye!")
    }
}
