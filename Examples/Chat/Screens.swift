import ComposeApp
import Foundation

// The three screens of a session. Each receives the lines typed while it is
// the top route (`input`), and reports what the user chose through its own
// emitters. None of them knows the others: the session routes between them.

/// Asks for a name until a free one is given.
struct NamePromptComponent: Component {
    let input = Emitter<String>()
    /// A name the user typed (checked by the session).
    let chose = Emitter<String>()
}

extension NamePromptComponent {
    var observers: Void {
        input += { line in
            let name = line.trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { chose.send(name) }
        }
    }
}

/// Between rooms: `/join ROOM`, `/who`, `/quit`.
struct LobbyComponent: Component {
    let input = Emitter<String>()
    let join = Emitter<String>()
    let unknown = Emitter<String>()
}

extension LobbyComponent {
    var observers: Void {
        input += { line in
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if words.first == "/join", words.count == 2 {
                join.send(words[1].trimmingCharacters(in: .whitespaces))
            } else {
                unknown.send(line)
            }
        }
    }
}

/// In a room: plain lines are said to the room; `/leave` goes back; any
/// other command is unknown here.
struct RoomComponent: Component {
    let input = Emitter<String>()
    let say = Emitter<String>()
    let leave = SignalEmitter()
    let unknown = Emitter<String>()
}

extension RoomComponent {
    var observers: Void {
        input += { line in
            if line == "/leave" {
                leave.send()
            } else if line.hasPrefix("/") {
                unknown.send(line)
            } else {
                say.send(line)
            }
        }
    }
}
