public import Compose
public import CoreMetrics

extension AppContext {
    /// Where the app's metrics go (swift-metrics; see `AppMetrics` for the
    /// list): loop lag, events, connections, bytes, child processes,
    /// restarts and store saves, with the app's name as the `app`
    /// dimension.
    ///
    /// `nil` (the default) until an app sets one, or until the runtime
    /// starts and finds `MetricsSystem` bootstrapped with a backend; with
    /// none the app makes no metric object at all. Setting it makes the
    /// metric objects once; the runtime's housekeeping timer then reports
    /// the counts every 100 ms (and ``updateMetrics()`` at once), so no
    /// send, read or write ever calls the backend.
    ///
    /// ```swift
    /// let registry = PrometheusCollectorRegistry()
    /// context.metricsFactory = PrometheusMetricsFactory(registry: registry)
    /// ```
    public var metricsFactory: (any MetricsFactory)? {
        get { appMetrics?.factory }
        set {
            guard let newValue else {
                metricsState.metrics = nil
                metricsState.certificateExpiries.bind(to: nil, app: name)
                return
            }
            let metrics = AppMetrics(factory: newValue, app: name)
            metrics.reportInitialGauges()
            metricsState.metrics = metrics
            metricsState.certificateExpiries.bind(to: newValue, app: name)
            updateMetrics()
        }
    }

    /// Reports what was counted since the last report to
    /// ``metricsFactory`` now (a scrape handler calls it before it
    /// renders); does nothing without one.
    public func updateMetrics() {
        guard let metrics = appMetrics else { return }
        metrics.update(loop: eventLoop?.counters.pointee, app: counters)
        metricsState.certificateExpiries.update()
    }

    /// The metric objects, once ``metricsFactory`` is set.
    var appMetrics: AppMetrics? { (metricsStore as? MetricsState)?.metrics }

    /// What the app's metrics are made of, made on first use: kept
    /// without a factory too, so that what is registered before one is
    /// set (a TLS listener's certificate) is reported once it is.
    var metricsState: MetricsState {
        if let state = metricsStore as? MetricsState { return state }
        let state = MetricsState()
        metricsStore = state
        return state
    }

    /// Reports the expiry of a certificate `listener` (`host:port`)
    /// presents, read from `certificate` (its file), as the gauge
    /// `compose_tls_certificate_expiry_seconds` (seconds until `notAfter`,
    /// seconds since the Unix epoch), from now on, whenever a metrics
    /// factory is set; `notAfter` `nil` removes it (the listener stopped).
    package func reportCertificateExpiry(listener: String, certificate: String, notAfter: Int64?) {
        metricsState.certificateExpiries.set(listener: listener, certificate: certificate, notAfter: notAfter)
    }

    /// Takes `MetricsSystem`'s backend when one was bootstrapped and the
    /// app set none (the runtime, at start).
    func adoptBootstrappedMetrics() {
        guard appMetrics == nil, !(MetricsSystem.factory is NOOPMetricsHandler) else { return }
        metricsFactory = MetricsSystem.factory
    }

    /// One housekeeping sample: the lag, and the counts since the last.
    func metricsSampled(lateness: UInt64) {
        guard let metrics = appMetrics else { return }
        metrics.recordLag(nanoseconds: lateness)
        metrics.update(loop: eventLoop?.counters.pointee, app: counters)
        metricsState.certificateExpiries.update()
    }
}
