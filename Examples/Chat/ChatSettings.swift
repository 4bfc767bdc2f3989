import Foundation

/// Where the daemon listens and how it behaves, from flags or environment:
///
///     ComposeChat --port 7070 --motd motd.txt --idle 300 --room-capacity 32 --max-line 4096 --send-queue 262144
///     CHAT_PORT=7070 CHAT_MOTD=motd.txt CHAT_IDLE_SECONDS=300 CHAT_ROOM_CAPACITY=32 CHAT_MAX_LINE=4096 CHAT_SEND_QUEUE=262144 ComposeChat
///
/// A flag wins over its variable; a value that does not parse (or a room
/// capacity, line length or send queue below 1) is ignored.
struct ChatSettings {
    var host = "127.0.0.1"
    var port: UInt16 = 7070
    /// A file whose text greets every client; re-read on SIGHUP.
    var motdPath: String?
    /// A client silent this long is disconnected.
    var idleTimeout: Duration = .seconds(300)
    /// The most members a room holds; `/join` to a full room is refused.
    var roomCapacity = 32
    /// The longest line a client may send, in bytes; a longer one
    /// disconnects the client with a reason (so one client cannot make the
    /// daemon buffer without bound).
    var maxLineLength = 4096
    /// The most bytes that may wait for a client that does not read what
    /// the room says; past it the client is disconnected and the room told
    /// why (so one client cannot make the daemon buffer without bound).
    var sendQueueLimit = 256 * 1024

    static func fromEnvironment(_ arguments: [String] = CommandLine.arguments) -> ChatSettings {
        var settings = ChatSettings()
        let environment = ProcessInfo.processInfo.environment
        if let port = environment["CHAT_PORT"].flatMap(UInt16.init) { settings.port = port }
        settings.motdPath = environment["CHAT_MOTD"]
        if let idle = environment["CHAT_IDLE_SECONDS"].flatMap(Double.init) { settings.idleTimeout = .milliseconds(Int(idle * 1000)) }
        if let capacity = environment["CHAT_ROOM_CAPACITY"].flatMap(Int.init), capacity >= 1 { settings.roomCapacity = capacity }
        if let length = environment["CHAT_MAX_LINE"].flatMap(Int.init), length >= 1 { settings.maxLineLength = length }
        if let limit = environment["CHAT_SEND_QUEUE"].flatMap(Int.init), limit >= 1 { settings.sendQueueLimit = limit }
        var rest = arguments.dropFirst()
        while let flag = rest.popFirst() {
            let value = rest.popFirst()
            switch flag {
            case "--port": if let port = value.flatMap(UInt16.init) { settings.port = port }
            case "--motd": settings.motdPath = value
            case "--idle": if let idle = value.flatMap(Double.init) { settings.idleTimeout = .milliseconds(Int(idle * 1000)) }
            case "--room-capacity": if let capacity = value.flatMap(Int.init), capacity >= 1 { settings.roomCapacity = capacity }
            case "--max-line": if let length = value.flatMap(Int.init), length >= 1 { settings.maxLineLength = length }
            case "--send-queue": if let limit = value.flatMap(Int.init), limit >= 1 { settings.sendQueueLimit = limit }
            default: break
            }
        }
        return settings
    }

    /// The message of the day: the file's text, or a default.
    func readMessageOfTheDay() -> String {
        guard let motdPath, let text = try? String(contentsOfFile: motdPath, encoding: .utf8) else {
            return "Welcome to Compose chat!"
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
