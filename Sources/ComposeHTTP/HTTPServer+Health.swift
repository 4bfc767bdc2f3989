extension HTTPServer {
    /// Serves the health endpoints orchestrators probe (Kubernetes'
    /// liveness and readiness probes, a load balancer's health check), as
    /// two `GET` routes (and `HEAD`) answered in short text:
    ///
    /// - `liveness` (`/healthz`): `200 ok` while the event loop keeps up,
    ///   `503` once its lag (`AppContext.loopHealth`'s p99 over the last
    ///   minute, as `compose inspect` shows it) is over `maximumLag`. A
    ///   loop blocked for good answers nothing at all, which a probe
    ///   counts as a failure too. With no loop health sampled (a test
    ///   context) it answers `200 ok`.
    /// - `readiness` (`/readyz`): `200 ready` while the app runs, `503`
    ///   while it starts, drains or closes (`ShutdownCoordinator.Phase`).
    ///   The app's drain closes the listener at once, so new probes are
    ///   refused; a client whose keep-alive connection is still being
    ///   drained (a request of it in flight) reads `503 draining`.
    ///
    /// Call it in the `observers` of the component that stores the server,
    /// like a route: the endpoints last as long as that observation.
    ///
    /// ```swift
    /// struct API: Component {
    ///     let server = HTTPServer(port: 8080)
    ///     var observers: Void {
    ///         server.serveHealth()
    ///         server.route(.get, "/hello") += { $0.respond(.ok, text: "hello\n") }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - liveness: The path of the liveness endpoint.
    ///   - readiness: The path of the readiness endpoint.
    ///   - maximumLag: The loop lag (p99) over which the app is not live.
    public func serveHealth(
        liveness: String = "/healthz",
        readiness: String = "/readyz",
        maximumLag: Duration = .milliseconds(500)
    ) {
        let shared = self.shared
        route(.get, liveness) += { exchange in
            let (status, text) = HTTPServer.liveness(of: shared.context ?? AppContext.current, maximumLag: maximumLag)
            exchange.respond(status, headers: [.cacheControl: "no-store"], text: text)
        }
        route(.get, readiness) += { exchange in
            let (status, text) = HTTPServer.readiness(of: shared.context ?? AppContext.current)
            exchange.respond(status, headers: [.cacheControl: "no-store"], text: text)
        }
    }

    /// The liveness answer: `200 ok`, or `503` with the lag that broke it.
    static func liveness(of context: AppContext?, maximumLag: Duration) -> (HTTPResponse.Status, String) {
        guard let health = context?.loopHealth, health.lagP99 > maximumLag else { return (.ok, "ok\n") }
        return (
            .serviceUnavailable,
            "loop lag p99 \(milliseconds(health.lagP99)) ms over \(milliseconds(maximumLag)) ms\n"
        )
    }

    /// The readiness answer: `200 ready` while the app runs, else `503` and
    /// its phase (`starting`, `draining`, `closing`).
    static func readiness(of context: AppContext?) -> (HTTPResponse.Status, String) {
        guard let phase = context?.shutdown.phase else { return (.ok, "ready\n") }
        return phase == .running ? (.ok, "ready\n") : (.serviceUnavailable, "\(phase)\n")
    }

    /// Whole milliseconds (`230`).
    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
