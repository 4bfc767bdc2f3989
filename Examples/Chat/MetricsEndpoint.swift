import ComposeApp
import Prometheus

/// `GET /metrics` on an opt-in port (`--metrics-port`): the daemon's
/// metrics (loop lag, events, connections, bytes, ...; see
/// `AppContext.metricsFactory`) in Prometheus text format, from a tiny
/// HTTP responder on a TCPServer. One request per connection: the answer,
/// then the connection closes.
///
///     ComposeChat --metrics-port 9464 &
///     curl -s 127.0.0.1:9464/metrics | grep compose_connections_open
struct MetricsEndpoint: Component {
    let host: String
    let listener: TCPServer
    let registry = PrometheusCollectorRegistry()
    let scrapes = InstanceComponent<ScrapeComponent>()

    init(host: String, port: UInt16) {
        self.host = host
        listener = TCPServer(host: host, port: port)
    }
}

extension MetricsEndpoint {
    var observers: Void {
        // The app's metrics go to this registry from now on.
        Application.context?.metricsFactory = PrometheusMetricsFactory(registry: registry)

        listener += { connection in
            scrapes.add { ScrapeComponent(connection: connection, registry: registry) }
        }
        scrapes.forward(\.connection.didClose) += { id, _ in scrapes.remove(id) }
        listener.errors += { error in
            Application.print(listener.isListening ? "cannot accept a metrics scrape: \(error)" : "cannot serve metrics: \(error)")
        }
        didAppear += {
            if listener.isListening { Application.print("metrics on http://\(host):\(listener.port)/metrics") }
        }
    }
}

/// One HTTP request: read up to the blank line that ends its headers,
/// answer, close.
struct ScrapeComponent: Component {
    let connection: TCPConnection
    let registry: PrometheusCollectorRegistry
    /// The request line (`GET /metrics HTTP/1.1`), once read.
    let request = RequestLine()
}

extension ScrapeComponent {
    var observers: Void {
        connection.lines += { line in
            guard let requestLine = request.line else {
                request.line = line
                return
            }
            _ = requestLine
            guard line.isEmpty else { return }   // a header
            respond(to: request.line ?? "")
        }
    }

    private func respond(to requestLine: String) {
        let parts = requestLine.split(separator: " ")
        let (status, body): (String, String)
        if parts.count >= 2, parts[0] == "GET", parts[1] == "/metrics" || parts[1].hasPrefix("/metrics?") {
            Application.context?.updateMetrics()
            (status, body) = ("200 OK", registry.emitToString())
        } else {
            (status, body) = ("404 Not Found", "Only GET /metrics is served here.\n")
        }
        connection.write(
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        )
        connection.close()
    }
}

/// Where a scrape keeps its request line between lines.
final class RequestLine {
    var line: String?
}
