import Compose
import Logging

extension Runtime {
    /// What every app gets to be looked at while it runs: the loop health
    /// sampler (and the metrics, when `MetricsSystem` has a backend), and
    /// the trace recording its configuration asks for (`--trace-file`,
    /// see ``TraceRecorder``). None of it fails the app: a failure is
    /// logged.
    func startObservability() {
        context.adoptBootstrappedMetrics()
        do {
            try context.startLoopHealth()
        } catch {
            context.logger.error("Cannot sample the loop's health: \(error)")
        }
        TraceRecorder.startFromConfiguration(in: context)
    }
}
