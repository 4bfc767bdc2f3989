import AsyncHTTPClient
import ComposeApp
import NIOCore

/// Asks an HTTP API for a quote each time `fetch` is sent a URL, and sends
/// the answer into the tree: `quotes` on a 200, `failures` otherwise.
struct QuoteFetcher: Component {
    let fetch = Emitter<String>()
    let quotes = Emitter<String>()
    let failures = Emitter<String>()

    var observers: Void {
        fetch += { url in
            // The task runs on the main actor, as observers do: it starts
            // now, and each `await` gives the loop back (timers, sockets,
            // other observers) until AsyncHTTPClient's threads answer.
            Task {
                do {
                    let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
                    let body = try await response.body.collect(upTo: 64 * 1024)
                    if response.status == .ok {
                        quotes.send(String(buffer: body))
                    } else {
                        failures.send("\(response.status.code) from \(url)")
                    }
                } catch {
                    failures.send("\(url): \(error)")
                }
            }
        }
    }
}
