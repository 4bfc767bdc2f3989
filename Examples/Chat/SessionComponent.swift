import ComposeApp
import Foundation

/// One connected client. The session is a router: its stack walks
/// name prompt → lobby → room, and only the top screen hears what is typed.
/// Commands valid everywhere (`/who`, `/quit`) are handled here.
///
/// The connection is stored in the session, so it starts reading when the
/// session appears and closes when the session is destroyed.
struct SessionComponent: RouterComponent {
    let connection: TCPConnection
    let hub: ChatHub
    let idleTimeout: Duration

    let naming = NamePromptComponent()
    let lobby = LobbyComponent()
    let room = RoomComponent()
    let router = Router(start: \Self.naming)

    /// Fires when the client has been silent for `idleTimeout`; restarted
    /// by every line. It runs only while the session is active.
    let idle: LoopTimer

    init(connection: TCPConnection, hub: ChatHub, idleTimeout: Duration) {
        self.connection = connection
        self.hub = hub
        self.idleTimeout = idleTimeout
        idle = LoopTimer(after: idleTimeout)
    }
}

extension SessionComponent {
    var observers: Void {
        didAppear += {
            connection.writeLine(hub.messageOfTheDay)
            connection.writeLine("What is your name?")
        }

        // Every line restarts the idle timer, then goes to the top screen
        // or to the commands valid everywhere.
        connection.lines += { line in
            idle.start()
            switch line {
            case "/quit":
                connection.writeLine("Bye!")
                connection.close()
            case "/who" where router.path != \Self.naming:
                let room = router.path == \Self.room ? hub.room(of: connection) : nil
                connection.writeLine("Here: " + hub.names(in: room).joined(separator: ", "))
            default:
                // Decide once: a screen may change the route while handling.
                let top = router.path
                if top == \Self.naming { naming.input.send(line) }
                else if top == \Self.lobby { lobby.input.send(line) }
                else if top == \Self.room { room.input.send(line) }
            }
        }

        // A line over the limit: the connection is closing; say why first
        // (what is written here still goes out before it closes).
        connection.errors += { error in
            guard error.kind == .lineTooLong else { return }
            connection.writeLine("Line too long (more than \(connection.maximumLineLength)). Bye!")
        }

        idle += {
            connection.writeLine("You have been idle for too long. Bye!")
            connection.close()
        }

        // The daemon shuts down: its listener is closed already; say
        // goodbye and close (the shutdown waits for every session to).
        connection.willDrain += {
            connection.writeLine("The server is shutting down. Goodbye!")
            connection.close()
        }

        naming.chose += { name in
            if hub.isTaken(name) {
                connection.writeLine("\(name) is taken. Another name?")
                return
            }
            hub.setName(name, for: connection)
            connection.writeLine("Hello, \(name)! Type /join ROOM, /who or /quit.")
            router.replace(\Self.lobby)
        }

        lobby.join += { roomName in
            guard hub.join(roomName, connection) else {
                connection.writeLine("\(roomName) is full (\(hub.roomCapacity) members). Try another room.")
                return
            }
            connection.writeLine("You are in \(roomName). Type to talk, /leave to go back.")
            router.push(\Self.room)
        }

        lobby.unknown += { _ in
            connection.writeLine("Commands: /join ROOM, /who, /quit")
        }

        room.say += { text in
            hub.say(text, from: connection)
        }

        room.unknown += { _ in
            connection.writeLine("Commands: /leave, /who, /quit")
        }

        // The route left the room without /leave (a deep link, or
        // `compose inspect open` in an app that allows it): the room is
        // told all the same.
        router.didChangePath += { route in
            guard route != \Self.room, let left = hub.room(of: connection) else { return }
            hub.leave(connection)
            connection.writeLine("You left \(left).")
        }

        room.leave += {
            // "Back in the lobby." read wrong from a room named lobby: the
            // reply names the room left, and what can be typed now.
            let left = hub.room(of: connection)
            hub.leave(connection)
            connection.writeLine("You left \(left ?? "the room"). Type /join ROOM, /who or /quit.")
            router.pop()
        }
    }

}
