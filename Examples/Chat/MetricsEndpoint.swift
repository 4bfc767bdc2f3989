import ComposeHTTP
import Prometheus

/// `GET /metrics` on an opt-in port (`--metrics-port`): the daemon's
/// metrics (loop lag, events, connections, bytes, ...; see
/// `AppContext.metricsFactory`) in Prometheus text format, on an
/// `HTTPServer` that also answers the orchestrators' probes
/// (`/healthz`: the loop keeps up; `/readyz`: running, not draining).
/// Connections are kept alive: a scraper reuses its connection.
///
///     ComposeChat --metrics-port 9464 &
///     curl -s 127.0.0.1:9464/metrics | grep compose_connections_open
///     curl -s 127.0.0.1:9464/healthz
struct MetricsEndpoint: Component {
    let host: String
    let server: HTTPServer
    let registry = PrometheusCollectorRegistry()

    init(host: String, port: UInt16) {
        self.host = host
        server = HTTPServer(host: host, port: port)
    }
}

extension MetricsEndpoint {
    var observers: Void {
        // The app's metrics go to this registry from now on.
        Application.context?.metricsFactory = PrometheusMetricsFactory(registry: registry)

        server.route(.get, "/metrics") += { exchange in
            Application.context?.updateMetrics()
            exchange.respond(
                .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                text: registry.emitToString()
            )
        }
        server.serveHealth()
        server.errors += { error in
            Application.print(server.isListening ? "cannot accept a metrics scrape: \(error)" : "cannot serve metrics: \(error)")
        }
        didAppear += {
            if server.isListening { Application.print("metrics on http://\(host):\(server.port)/metrics") }
        }
    }
}
