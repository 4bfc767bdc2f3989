import Foundation

// What `compose top` reads from the inspection protocol's JSON replies
// (docs/inspection-protocol.md), decoded with Codable. Only the members
// top shows; the protocol lets replies grow new members, which are
// ignored.

/// A reply's envelope: `ok`, and the failure's `error` when not ok.
struct TopReplyStatus: Decodable, Equatable {
    struct Failure: Decodable, Equatable {
        var code: String
        var message: String
    }

    var ok: Bool?
    var error: Failure?
}

/// The `info` reply.
struct TopInfo: Decodable, Equatable {
    var app: String
    var pid: Int
    var uptime: Double
}

/// The `tree` reply's tree.
struct TopTree: Decodable, Equatable {
    /// One component, depth first, parents before children.
    struct Component: Decodable, Equatable {
        /// A container's kind and its number of instances.
        struct Container: Decodable, Equatable {
            var kind: String
            var instances: Int
        }

        /// An emitter, with its sends since counting began.
        struct Emitter: Decodable, Equatable {
            var name: String
            var sends: Int?
        }

        var path: String
        var label: String
        var depth: Int
        var type: String
        var active: Bool?
        var focused: Bool?
        /// A router's stack, bottom first.
        var routes: [String]?
        var container: Container?
        var emitters: [Emitter]?

        /// Every send of the component's emitters since counting began.
        var sends: Int { (emitters ?? []).reduce(0) { $0 + ($1.sends ?? 0) } }
    }

    var app: String
    /// The app's clock, in seconds since it started.
    var time: Double
    var components: [Component]

    /// Every send the app counted.
    var sends: Int { components.reduce(0) { $0 + $1.sends } }
}

/// The `loop` reply's loop.
struct TopLoop: Decodable, Equatable {
    struct Listener: Decodable, Equatable {
        var path: String?
        var address: String
        var listening: Bool?
    }

    struct Connection: Decodable, Equatable {
        var path: String?
        var peer: String
        var queuedBytes: Int
        var closing: Bool?
    }

    /// The loop's health over its last minute; absent when nothing
    /// measures it.
    struct Health: Decodable, Equatable {
        var lagP50: Double
        var lagP99: Double
        var lagMax: Double
        var eventsPerSecond: Double
        var utilization: Double?
    }

    var app: String
    var pid: Int
    var time: Double
    var handleCount: Int?
    var listeners: [Listener]?
    var connections: [Connection]?
    var health: Health?
}

/// One line of a `follow` stream: an event, or how many were dropped.
struct TopFollowLine: Decodable, Equatable {
    struct Event: Decodable, Equatable {
        var time: Double
        var kind: String
        var path: String?
        var value: String?
        var code: String?
        var message: String?
    }

    var event: Event?
    var dropped: Int?
}

/// Decodes reply lines.
enum TopDecoding {
    private struct TreeReply: Decodable { var tree: TopTree }
    private struct LoopReply: Decodable { var loop: TopLoop }

    /// The value of a reply line, or why there is none: the app's error
    /// message, or that the line is not the JSON expected.
    static func decode<Value: Decodable>(_ type: Value.Type, from line: String) -> Result<Value, TopFailure> {
        let data = Data(line.utf8)
        let decoder = JSONDecoder()
        if let status = try? decoder.decode(TopReplyStatus.self, from: data), status.ok == false {
            let error = status.error
            return .failure(TopFailure("\(error?.message ?? "The app refused the request.") (\(error?.code ?? "?"))"))
        }
        do {
            return .success(try decoder.decode(Value.self, from: data))
        } catch {
            return .failure(TopFailure("Unreadable reply: \(String(line.prefix(80)))"))
        }
    }

    static func tree(_ line: String) -> Result<TopTree, TopFailure> {
        decode(TreeReply.self, from: line).map(\.tree)
    }

    static func loop(_ line: String) -> Result<TopLoop, TopFailure> {
        decode(LoopReply.self, from: line).map(\.loop)
    }

    static func info(_ line: String) -> Result<TopInfo, TopFailure> {
        decode(TopInfo.self, from: line)
    }

    /// A follow line; `nil` for the acknowledgement and lines of no use.
    static func followLine(_ line: String) -> TopFollowLine? {
        guard let decoded = try? JSONDecoder().decode(TopFollowLine.self, from: Data(line.utf8)),
              decoded.event != nil || decoded.dropped != nil else { return nil }
        return decoded
    }
}

/// Why top cannot show something: shown in its status line.
struct TopFailure: Error, Equatable, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
