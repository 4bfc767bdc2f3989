/// The routes of one server, in the order they were declared.
@MainActor
final class HTTPRoutes {
    /// One route: a method, a pattern, and the emitter its handlers observe.
    final class Route {
        enum Segment: Equatable {
            case literal(Substring)
            case parameter(String)
            /// `*` at the end: the rest of the path.
            case rest
        }

        let method: HTTPRequest.Method
        let pattern: String
        let segments: [Segment]
        let exchanges = Emitter<HTTPExchange>()

        init(method: HTTPRequest.Method, pattern: String) {
            self.method = method
            self.pattern = pattern
            segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { piece in
                if piece == "*" { return .rest }
                if piece.first == ":" { return .parameter(String(piece.dropFirst())) }
                return .literal(piece)
            }
        }

        /// The parameters of `path` (split at `/`) if it matches.
        func match(_ path: [Substring]) -> [String: String]? {
            var parameters: [String: String] = [:]
            var index = 0
            for segment in segments {
                switch segment {
                case .rest:
                    parameters["*"] = path[index...].map { HTTPRoutes.percentDecoded($0) }.joined(separator: "/")
                    return parameters
                case .literal(let literal):
                    guard index < path.count, path[index] == literal else { return nil }
                case .parameter(let name):
                    guard index < path.count else { return nil }
                    parameters[name] = HTTPRoutes.percentDecoded(path[index])
                }
                index += 1
            }
            return index == path.count ? parameters : nil
        }
    }

    /// What a request's method and path found.
    enum Match {
        case route(Route, parameters: [String: String])
        /// Routes match the path, for these methods only.
        case methodNotAllowed([HTTPRequest.Method])
        case notFound
    }

    private var routes: [Route] = []

    /// A new route's emitter.
    func add(_ method: HTTPRequest.Method, _ pattern: String) -> Emitter<HTTPExchange> {
        let route = Route(method: method, pattern: pattern)
        routes.append(route)
        return route.exchanges
    }

    /// The first live route for `method` and `path` (`HEAD` falls back on
    /// `GET`). Routes nobody observes any more are skipped, and dropped
    /// once one is met (only routes whose pattern matches are asked: an
    /// emitter's observer count is a call into another module).
    func match(_ method: HTTPRequest.Method, path: Substring) -> Match {
        let segments = Self.segments(of: path)
        var fallback: (Route, [String: String])?
        var allowed: [HTTPRequest.Method] = []
        var found: (Route, [String: String])?
        var sawDead = false
        for route in routes {
            guard let parameters = route.match(segments) else { continue }
            guard route.exchanges.observerCount > 0 else {
                sawDead = true
                continue
            }
            if route.method == method {
                found = (route, parameters)
                break
            }
            if method == .head, route.method == .get, fallback == nil { fallback = (route, parameters) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if sawDead { routes.removeAll { $0.exchanges.observerCount == 0 } }
        if let (route, parameters) = found ?? fallback { return .route(route, parameters: parameters) }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
        return .methodNotAllowed(allowed)
    }

    /// The non-empty pieces of `path` between slashes: what
    /// `split(separator: "/")` gives, found on the UTF-8 view (that split
    /// cost more than the rest of a lookup, even for `/`, which has none).
    nonisolated static func segments(of path: Substring) -> [Substring] {
        var segments: [Substring] = []
        var start = path.startIndex
        var index = start
        while index != path.endIndex {
            if path.utf8[index] == UInt8(ascii: "/") {
                if start != index { segments.append(path[start..<index]) }
                start = path.utf8.index(after: index)
            }
            index = path.utf8.index(after: index)
        }
        if start != path.endIndex { segments.append(path[start...]) }
        return segments
    }

    /// How many routes are live.
    var count: Int {
        routes.reduce(0) { $0 + ($1.exchanges.observerCount > 0 ? 1 : 0) }
    }

    /// `%XX` escapes decoded (a malformed one is kept as it is); invalid
    /// UTF-8 becomes U+FFFD.
    nonisolated static func percentDecoded(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "%"), iterator.count >= 2,
               let high = hexValue(iterator[iterator.startIndex]),
               let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private nonisolated static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
