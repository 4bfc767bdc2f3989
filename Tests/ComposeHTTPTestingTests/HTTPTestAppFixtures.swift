import ComposeApp
import ComposeHTTP
import HTTPTypes

/// An API with a route of each kind the TestApp tests need.
struct ShopAPI: Component {
    let server: HTTPServer
    let kept = KeptExchanges()

    init(port: UInt16 = 8080, limits: HTTPServer.Limits = HTTPServer.Limits()) {
        server = HTTPServer(port: port, limits: limits)
    }

    var observers: Void {
        server.serveHealth()
        server.route(.get, "/hello/:name") += { exchange in
            exchange.respond(.ok, text: "hello \(exchange.parameters["name"] ?? "")\n")
        }
        server.route(.put, "/items/:id") += { exchange in
            exchange.collectBody(upTo: 64) += { body in
                kept.items[exchange.parameters["id"] ?? ""] = String(decoding: body, as: UTF8.self)
                exchange.respond(.created)
            }
        }
        server.route(.get, "/items/:id") += { exchange in
            if let item = kept.items[exchange.parameters["id"] ?? ""] {
                exchange.respond(.ok, headers: [.contentType: "text/plain"], text: item)
            } else {
                exchange.respond(.notFound, text: "no such item\n")
            }
        }
        server.route(.post, "/echo") += { exchange in
            exchange.collectBody(upTo: 1 << 20) += { body in exchange.respond(.ok, body: body) }
        }
        // Answers after five seconds of the app's clock (virtual in a
        // TestApp): stands for slow work.
        server.route(.get, "/slow") += { exchange in
            _ = AppContext.current?.scheduler?.schedule(after: .seconds(5)) { exchange.respond(.ok, text: "done\n") }
        }
        // Keeps the exchange and never answers.
        server.route(.get, "/never") += { exchange in kept.exchanges.append(exchange) }
        server.route(.get, "/stream") += { exchange in
            exchange.writeHead(.ok)
            exchange.write("one\n")
            exchange.write("two\n")
            exchange.end()
        }
    }
}

/// The shop's items, and exchanges a handler keeps unanswered.
@MainActor
final class KeptExchanges {
    var items: [String: String] = [:]
    var exchanges: [HTTPExchange] = []
}
