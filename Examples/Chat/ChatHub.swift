import ComposeApp

/// The state every session shares: who is connected, under which name, in
/// which room. It is a plain class handed to each session; it never owns a
/// component or an observer, only the connections it writes to.
@MainActor
final class ChatHub {
    struct Member {
        var name: String?
        var room: String?
        let connection: TCPConnection
    }

    /// The text every client sees first.
    var messageOfTheDay: String
    /// The most members a room holds.
    let roomCapacity: Int
    /// Members by connection (a connection is one client).
    private var members: [ObjectIdentifier: Member] = [:]

    init(messageOfTheDay: String, roomCapacity: Int) {
        self.messageOfTheDay = messageOfTheDay
        self.roomCapacity = roomCapacity
    }

    func connected(_ connection: TCPConnection) {
        members[ObjectIdentifier(connection)] = Member(connection: connection)
    }

    /// `note` is added to what the room is told (why the member left).
    func disconnected(_ connection: TCPConnection, note: String = "") {
        let id = ObjectIdentifier(connection)
        if let member = members[id], let room = member.room, let name = member.name {
            broadcast("* \(name) left \(room)\(note)", in: room, except: connection)
        }
        members[id] = nil
    }

    func isTaken(_ name: String) -> Bool {
        members.values.contains { $0.name == name }
    }

    func room(of connection: TCPConnection) -> String? {
        members[ObjectIdentifier(connection)]?.room
    }

    func setName(_ name: String, for connection: TCPConnection) {
        members[ObjectIdentifier(connection)]?.name = name
    }

    /// Puts the client in `room` and tells the others there. Returns
    /// `false`, changing nothing, when the room already holds
    /// ``roomCapacity`` members.
    func join(_ room: String, _ connection: TCPConnection) -> Bool {
        guard count(in: room) < roomCapacity else { return false }
        let id = ObjectIdentifier(connection)
        members[id]?.room = room
        if let name = members[id]?.name {
            broadcast("* \(name) joined \(room)", in: room, except: connection)
        }
        return true
    }

    /// How many members are in `room`.
    func count(in room: String) -> Int {
        members.values.reduce(0) { $0 + ($1.room == room ? 1 : 0) }
    }

    func leave(_ connection: TCPConnection) {
        let id = ObjectIdentifier(connection)
        guard let room = members[id]?.room else { return }
        members[id]?.room = nil
        if let name = members[id]?.name {
            broadcast("* \(name) left \(room)", in: room, except: connection)
        }
    }

    /// Names of the members in `room`, or of everyone named when `nil`.
    func names(in room: String?) -> [String] {
        members.values
            .filter { room == nil || $0.room == room }
            .compactMap(\.name)
            .sorted()
    }

    func say(_ text: String, from connection: TCPConnection) {
        guard let member = members[ObjectIdentifier(connection)], let room = member.room, let name = member.name else { return }
        broadcast("<\(name)> \(text)", in: room, except: connection)
    }

    func broadcast(_ line: String, in room: String, except sender: TCPConnection? = nil) {
        for member in members.values where member.connection !== sender && member.room == room {
            member.connection.writeLine(line)
        }
    }
}
