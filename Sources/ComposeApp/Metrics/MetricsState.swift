import Compose

/// An app's metrics (``AppContext/metricsStore``): the metric objects
/// while a factory is set, and the certificate expiries reported, kept
/// with or without one.
@MainActor
final class MetricsState {
    /// The metric objects, while ``AppContext/metricsFactory`` is set.
    var metrics: AppMetrics?
    /// The TLS listeners' certificates (ComposeTLS reports them).
    let certificateExpiries = CertificateExpiryGauges()
}
