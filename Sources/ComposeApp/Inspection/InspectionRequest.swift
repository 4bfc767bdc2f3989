/// One request of the inspection protocol (docs/inspection-protocol.md):
/// a JSON object on one line, `{"v":1,"command":"tree"}`, or the same as
/// words for people at a terminal (`tree`, `follow app.server --utc`,
/// `open server/sessions/1/lobby`, `tree --width 120`), which ask for
/// text.
struct InspectionRequest: Equatable {
    /// The protocol version this server speaks.
    static let version = 1
    /// The longest request line read; a longer one closes the connection.
    static let maximumLineLength = 64 << 10
    /// The width of text lines unless the request says (an 80-column
    /// terminal, for a client that does not know its own).
    static let defaultWidth = 80
    /// The widest `width` a request may ask for.
    static let maximumWidth = 10_000

    enum Command: String, CaseIterable {
        case info, tree, loop, follow, open, counting

        /// Whether the command changes the app (not only what inspection
        /// measures): refused unless the app allows changes (see
        /// ``Inspection/allowsChanges``).
        var changesTheApp: Bool { self == .open }
    }

    /// How `follow` shows each event's time in text.
    enum TimeFormat: String, Equatable {
        /// Since the follow began, in seconds to the millisecond: `+12.345s`.
        case relative
        /// Wall-clock time in UTC, ISO 8601: `2025-06-01T12:34:56.789Z`.
        case utc
    }

    var command: Command
    /// Whether the reply carries text for people (`"format":"text"`)
    /// rather than the structured JSON.
    var wantsText = false
    /// `follow`'s path prefix (empty: everything).
    var path = ""
    /// `open`'s route.
    var route = ""
    /// `counting`'s switch.
    var on = true
    /// The columns text lines are cut at (with `…`); 0 never cuts.
    var width = InspectionRequest.defaultWidth
    /// How `follow`'s text shows times.
    var time = TimeFormat.relative

    /// Parses a request line.
    ///
    /// - Throws: ``InspectionFailure`` with code `badRequest`,
    ///   `unsupportedVersion` or `unknownCommand`.
    static func parse(_ line: String) throws(InspectionFailure) -> InspectionRequest {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        if trimmed.first == "{" { return try parseJSON(String(trimmed)) }
        return try parseWords(String(trimmed))
    }

    private static func parseJSON(_ line: String) throws(InspectionFailure) -> InspectionRequest {
        let json: InspectionJSON
        do {
            json = try InspectionJSON.parse(line)
        } catch {
            throw InspectionFailure(.badRequest, "The request is not valid JSON (\(error)).")
        }
        guard let version = json["v"]?.intValue else {
            throw InspectionFailure(.badRequest, "The request has no protocol version: send {\"v\":\(Self.version),\"command\":...}.")
        }
        guard version == Self.version else {
            throw InspectionFailure(.unsupportedVersion, "This app speaks inspection protocol version \(Self.version), not \(version).")
        }
        guard let name = json["command"]?.stringValue else {
            throw InspectionFailure(.badRequest, "The request has no \"command\" string.")
        }
        var request = InspectionRequest(command: try command(name))
        if let format = json["format"] {
            switch format.stringValue {
            case "text": request.wantsText = true
            case "json": request.wantsText = false
            default: throw InspectionFailure(.badRequest, "\"format\" is \"json\" or \"text\".")
            }
        }
        if let path = json["path"] {
            guard let value = path.stringValue else { throw InspectionFailure(.badRequest, "\"path\" must be a string.") }
            request.path = value
        }
        if let route = json["route"] {
            guard let value = route.stringValue else { throw InspectionFailure(.badRequest, "\"route\" must be a string.") }
            request.route = value
        }
        if let on = json["on"] {
            guard let value = on.boolValue else { throw InspectionFailure(.badRequest, "\"on\" must be true or false.") }
            request.on = value
        }
        if let width = json["width"] {
            guard let value = width.intValue else { throw InspectionFailure(.badRequest, "\"width\" must be a number of columns.") }
            request.width = try checkedWidth(value)
        }
        if let time = json["time"] {
            guard let value = time.stringValue.flatMap(TimeFormat.init(rawValue:)) else {
                throw InspectionFailure(.badRequest, "\"time\" is \"relative\" or \"utc\".")
            }
            request.time = value
        }
        try request.checkArguments()
        return request
    }

    private static func parseWords(_ line: String) throws(InspectionFailure) -> InspectionRequest {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first else { throw InspectionFailure(.badRequest, "The request is empty.") }
        var request = InspectionRequest(command: try command(first))
        request.wantsText = true
        var arguments: [String] = []
        var rest = words.dropFirst()[...]
        while let word = rest.popFirst() {
            switch word {
            case "--json": request.wantsText = false
            case "--utc": request.time = .utc
            case "--width":
                guard let next = rest.popFirst() else { throw InspectionFailure(.badRequest, "--width needs a number of columns (0: never cut).") }
                request.width = try checkedWidth(next)
            case _ where word.hasPrefix("--width="):
                request.width = try checkedWidth(String(word.dropFirst("--width=".count)))
            case _ where word.hasPrefix("--"):
                throw InspectionFailure(.badRequest, "Unknown option \(word); options: --json, --width N, --utc.")
            default: arguments.append(word)
            }
        }
        guard arguments.count <= 1 else {
            throw InspectionFailure(.badRequest, "\(first) takes at most one argument.")
        }
        let argument = arguments.first ?? ""
        switch request.command {
        case .follow: request.path = argument
        case .open: request.route = argument
        case .counting:
            switch argument {
            case "on", "": request.on = true
            case "off": request.on = false
            default: throw InspectionFailure(.badRequest, "counting is followed by on or off.")
            }
        case .info, .tree, .loop:
            guard argument.isEmpty else { throw InspectionFailure(.badRequest, "\(first) takes no argument.") }
        }
        try request.checkArguments()
        return request
    }

    private static func checkedWidth(_ text: String) throws(InspectionFailure) -> Int {
        guard let value = Int(text) else { throw InspectionFailure(.badRequest, "--width needs a number of columns, not \"\(text)\".") }
        return try checkedWidth(value)
    }

    private static func checkedWidth(_ value: Int) throws(InspectionFailure) -> Int {
        guard (0...maximumWidth).contains(value) else {
            throw InspectionFailure(.badRequest, "The width is 0 (never cut) to \(maximumWidth) columns, not \(value).")
        }
        return value
    }

    private static func command(_ name: String) throws(InspectionFailure) -> Command {
        guard let command = Command(rawValue: name) else {
            let known = Command.allCases.map(\.rawValue).joined(separator: ", ")
            throw InspectionFailure(.unknownCommand, "Unknown command \"\(name)\". Commands: \(known).")
        }
        return command
    }

    private func checkArguments() throws(InspectionFailure) {
        if command == .open, route.isEmpty {
            throw InspectionFailure(.badRequest, "open needs a route, e.g. \"auth/signUp\".")
        }
    }
}

/// A request the app cannot answer: a code for programs and a message for
/// people, sent as `{"v":1,"ok":false,"error":{"code":...,"message":...}}`.
struct InspectionFailure: Error, Equatable {
    enum Code: String {
        /// The line is not a request (not JSON, a field of the wrong type).
        case badRequest
        /// The request's `v` is not a version this app speaks.
        case unsupportedVersion
        /// The command is not one of the protocol's.
        case unknownCommand
        /// `open` could not route (the message names the valid choices).
        case routeFailed
        /// The command would change the app, which the app does not allow
        /// (the message says how to allow it).
        case notAllowed
        /// The app has no component tree (starting, or shut down).
        case noTree
        /// The peer is another user.
        case refused
        /// Too many inspection clients are connected.
        case busy
    }

    let code: Code
    let message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The reply line.
    var reply: InspectionJSON {
        var members: [InspectionJSON.Member] = [
            .init(key: "v", value: .int(InspectionRequest.version)),
            .init(key: "ok", value: .bool(false)),
            .init(key: "error", value: .object(["code": .string(code.rawValue), "message": .string(message)])),
        ]
        if code == .unsupportedVersion {
            members.append(.init(key: "versions", value: .array([.int(InspectionRequest.version)])))
        }
        return .object(members)
    }
}
