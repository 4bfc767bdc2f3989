import ComposeHTTP

/// What the demo's API holds and counts.
@MainActor
final class QuoteAPIState {
    var ticks = 0
    /// Requests held, with the tick they arrived at.
    var held: [(exchange: HTTPExchange, tick: Int)] = []
    /// Answers the fetcher sent into the tree so far.
    var answers = 0
}

/// A demo app: `QuoteFetcher` calls an HTTP API that this same app
/// serves on 127.0.0.1 (a ComposeHTTP server), and prints what came back.
/// The API answers `GET /quote` only once the app's timer has ticked
/// `ticksBeforeAnswer` times since the request arrived: a quote that
/// arrives at all shows that the loop kept running its timers while the
/// fetcher's task awaited AsyncHTTPClient. It asks for a quote twice at
/// once and for a path the API answers 404, then shuts down. (A port
/// nothing listens on would be a failure too, but only at the request's
/// deadline: AsyncHTTPClient retries a refused connection until then.)
@main
struct QuoteDemo: Component, StartupComponent {
    static let ticksBeforeAnswer = 5
    static let quote = "Simplicity is prerequisite for reliability."
    static let requests = 3

    let server = HTTPServer(host: "127.0.0.1", port: 0)
    let tick = LoopTimer(every: .milliseconds(10))
    let fetcher = QuoteFetcher()
    let state = QuoteAPIState()

    var observers: Void {
        server.route(.get, "/quote") += { exchange in
            state.held.append((exchange, state.ticks))
        }
        tick += {
            state.ticks += 1
            let isDue = { (held: (exchange: HTTPExchange, tick: Int)) in state.ticks - held.tick >= Self.ticksBeforeAnswer }
            let due = state.held.filter(isDue)
            state.held.removeAll(where: isDue)
            for held in due { held.exchange.respond(.ok, text: Self.quote) }
        }
        didAppear += {
            let base = "http://127.0.0.1:\(server.port)"
            Application.print("asking at tick \(state.ticks)")
            fetcher.fetch.send("\(base)/quote")
            fetcher.fetch.send("\(base)/quote")
            fetcher.fetch.send("\(base)/nothing")
        }
        fetcher.quotes += { quote in
            Application.print("quote at tick \(state.ticks): \(quote)")
            answered()
        }
        fetcher.failures += { failure in
            Application.print("failure: \(failure)")
            answered()
        }
        server.errors += { error in
            Application.print("cannot serve: \(error)")
            Application.shutdown(status: 1)
        }
    }

    private func answered() {
        state.answers += 1
        if state.answers == Self.requests { Application.shutdown(status: 0) }
    }
}
