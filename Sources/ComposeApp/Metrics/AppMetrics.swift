import Compose
import CoreMetrics

/// An app's metrics in swift-metrics (``AppContext/metricsFactory``): made
/// once per context, with the app's name as the `app` dimension, and fed
/// from the loop's and the app's counters by the runtime's housekeeping
/// timer (every 100 ms) and at ``AppContext/updateMetrics()``, never from
/// the hot paths. So an app without a metrics backend pays nothing but
/// the integer additions of its counters, and one with a backend pays a
/// few calls per sample, whatever its traffic.
///
/// | metric | type | what |
/// |---|---|---|
/// | `compose_loop_lag` | timer (ns) | the housekeeping timer's lateness, each sample |
/// | `compose_loop_events_total` | counter | loop callbacks into the app |
/// | `compose_connections_accepted_total` | counter | connections accepted |
/// | `compose_connections_open` | gauge | connections open now |
/// | `compose_bytes_read_total`, `compose_bytes_written_total` | counter | bytes of every stream |
/// | `compose_child_processes_spawned_total` | counter | children started |
/// | `compose_child_processes_running` | gauge | children running now |
/// | `compose_restarts_total` | counter | supervised restarts |
/// | `compose_store_saves_total`, `compose_store_save_failures_total` | counter | persisted store saves |
/// | `compose_tls_certificate_expiry_seconds` | gauge | seconds until each TLS listener's certificate expires (dimensions `listener`, `certificate`; see ``CertificateExpiryGauges``) |
@MainActor
final class AppMetrics {
    let factory: any MetricsFactory
    private let lag: CoreMetrics.Timer
    private let events: Counter
    private let accepted: Counter
    private let open: Gauge
    private let bytesRead: Counter
    private let bytesWritten: Counter
    private let spawned: Counter
    private let running: Gauge
    private let restarts: Counter
    private let saves: Counter
    private let saveFailures: Counter
    /// The counts already reported (counters take increments).
    private var reported = LoopCounters()
    private var reportedRestarts = 0
    private var reportedSaves = 0
    private var reportedSaveFailures = 0

    init(factory: any MetricsFactory, app: String) {
        self.factory = factory
        let dimensions = [("app", app)]
        lag = CoreMetrics.Timer(label: "compose_loop_lag", dimensions: dimensions, factory: factory)
        events = Counter(label: "compose_loop_events_total", dimensions: dimensions, factory: factory)
        accepted = Counter(label: "compose_connections_accepted_total", dimensions: dimensions, factory: factory)
        open = Gauge(label: "compose_connections_open", dimensions: dimensions, factory: factory)
        bytesRead = Counter(label: "compose_bytes_read_total", dimensions: dimensions, factory: factory)
        bytesWritten = Counter(label: "compose_bytes_written_total", dimensions: dimensions, factory: factory)
        spawned = Counter(label: "compose_child_processes_spawned_total", dimensions: dimensions, factory: factory)
        running = Gauge(label: "compose_child_processes_running", dimensions: dimensions, factory: factory)
        restarts = Counter(label: "compose_restarts_total", dimensions: dimensions, factory: factory)
        saves = Counter(label: "compose_store_saves_total", dimensions: dimensions, factory: factory)
        saveFailures = Counter(label: "compose_store_save_failures_total", dimensions: dimensions, factory: factory)
    }

    /// Records one lag sample (ns).
    func recordLag(nanoseconds: UInt64) {
        lag.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Reports what the counters counted since the last update.
    func update(loop: LoopCounters?, app: AppCounters) {
        if let loop {
            Self.add(loop.events, to: events, since: reported.events)
            Self.add(loop.connectionsAccepted, to: accepted, since: reported.connectionsAccepted)
            Self.add(loop.bytesRead, to: bytesRead, since: reported.bytesRead)
            Self.add(loop.bytesWritten, to: bytesWritten, since: reported.bytesWritten)
            Self.add(loop.processesSpawned, to: spawned, since: reported.processesSpawned)
            if loop.connectionsOpen != reported.connectionsOpen { open.record(Int64(clamping: loop.connectionsOpen)) }
            if loop.processesRunning != reported.processesRunning { running.record(Int64(clamping: loop.processesRunning)) }
            reported = loop
        }
        Self.add(UInt64(app.restarts), to: restarts, since: UInt64(reportedRestarts))
        Self.add(UInt64(app.storeSaves), to: saves, since: UInt64(reportedSaves))
        Self.add(UInt64(app.storeSaveFailures), to: saveFailures, since: UInt64(reportedSaveFailures))
        reportedRestarts = app.restarts
        reportedSaves = app.storeSaves
        reportedSaveFailures = app.storeSaveFailures
    }

    /// Reports the gauges' starting values (zero), so a scrape lists them
    /// before anything happened.
    func reportInitialGauges() {
        open.record(0)
        running.record(0)
    }

    private static func add(_ now: UInt64, to counter: Counter, since before: UInt64) {
        guard now > before else { return }
        counter.increment(by: Int64(clamping: now - before))
    }
}
