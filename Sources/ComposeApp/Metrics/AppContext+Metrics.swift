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
                metricsStore = nil
                return
            }
            let metrics = AppMetrics(factory: newValue, app: name)
            metrics.reportInitialGauges()
            metricsStore = metrics
            updateMetrics()
        }
    }

    /// Reports what was counted since the last report to
    /// ``metricsFactory`` now (a scrape handler calls it before it
    /// renders); does nothing without one.
    public func updateMetrics() {
        appMetrics?.update(loop: eventLoop?.counters.pointee, app: counters)
    }

    /// The metric objects, once ``metricsFactory`` is set.
    var appMetrics: AppMetrics? { metricsStore as? AppMetrics }

    /// Takes `MetricsSystem`'s backend when one was bootstrapped and the
    /// app set none (the runtime, at start).
    func adoptBootstrappedMetrics() {
        guard metricsStore == nil, !(MetricsSystem.factory is NOOPMetricsHandler) else { return }
        metricsFactory = MetricsSystem.factory
    }

    /// One housekeeping sample: the lag, and the counts since the last.
    func metricsSampled(lateness: UInt64) {
        guard let metrics = appMetrics else { return }
        metrics.recordLag(nanoseconds: lateness)
        metrics.update(loop: eventLoop?.counters.pointee, app: counters)
    }
}
