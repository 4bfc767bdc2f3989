import Compose
import CoreMetrics
#if canImport(Glibc)
import Glibc
#endif

/// The gauge `compose_tls_certificate_expiry_seconds`: for each
/// certificate a TLS listener presents, the seconds left until it expires
/// (negative once it has), with the dimensions `app`, `listener`
/// (`host:port`) and `certificate` (the file it was read from, which stays
/// the same across reloads). ComposeTLS reports the certificates
/// (``AppContext/reportCertificateExpiry(listener:certificate:notAfter:)``)
/// when a listener starts, reloads and stops; each metrics sample records
/// the gauges whose value changed (once a second), never the hot paths.
@MainActor
final class CertificateExpiryGauges {
    private struct Key: Hashable {
        var listener: String
        var certificate: String
    }

    private struct Entry {
        /// Seconds since the Unix epoch.
        var notAfter: Int64
        var gauge: Gauge?
        /// The value last recorded.
        var recorded: Int64?
    }

    private var entries: [Key: Entry] = [:]
    private var factory: (any MetricsFactory)?
    private var app = ""

    static let label = "compose_tls_certificate_expiry_seconds"

    /// Makes the gauges with `factory` (`nil`: drops them).
    func bind(to factory: (any MetricsFactory)?, app: String) {
        self.factory = factory
        self.app = app
        for key in entries.keys {
            entries[key]?.gauge = factory.map { makeGauge(key, $0) }
            entries[key]?.recorded = nil
        }
        update()
    }

    /// Adds, changes (a reload) or, with `notAfter` `nil`, removes a
    /// certificate; records it at once.
    func set(listener: String, certificate: String, notAfter: Int64?) {
        let key = Key(listener: listener, certificate: certificate)
        guard let notAfter else {
            if let gauge = entries.removeValue(forKey: key)?.gauge { gauge.destroy() }
            return
        }
        if entries[key] == nil {
            entries[key] = Entry(notAfter: notAfter, gauge: factory.map { makeGauge(key, $0) })
        } else {
            entries[key]?.notAfter = notAfter
        }
        update()
    }

    /// Records each gauge whose value changed since it was last recorded.
    func update() {
        guard factory != nil, !entries.isEmpty else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for (key, entry) in entries {
            let left = entry.notAfter - Int64(now.tv_sec)
            guard left != entry.recorded, let gauge = entry.gauge else { continue }
            gauge.record(left)
            entries[key]?.recorded = left
        }
    }

    private func makeGauge(_ key: Key, _ factory: any MetricsFactory) -> Gauge {
        Gauge(label: Self.label, dimensions: [("app", app), ("listener", key.listener), ("certificate", key.certificate)], factory: factory)
    }
}
