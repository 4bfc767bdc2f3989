import Compose
import ComposeApp
import CoreMetrics

// The cost of being inspectable: an emitter's send in an app whose loop
// health sampler and metrics run, and that an inspector followed and left
// (tracing turned on, then off), against the same send in an app with none
// of it. Nobody is connected in either: the target is under 5%.

/// A component whose emitter the benchmark sends on.
struct InspectionProbe: Component {
    let value = Emitter<Int>()
}

extension InspectionProbe {
    var observers: Void { None }
}

enum InspectionBenchmarks {
    /// Nanoseconds per send to `observers` observers, with the machinery
    /// on and nobody connected, and off.
    @MainActor
    static func send(toObservers observers: Int, sink: Sink) throws -> (enabled: Double, disabled: Double) {
        let plain = try AppContext.live(name: "plain")
        let inspected = try AppContext.live(name: "inspected")
        try inspected.startLoopHealth()
        // A backend that takes every report (and does nothing with it).
        inspected.metricsFactory = NOOPMetricsHandler.instance
        // An inspector followed the app, then left.
        inspected.tracesEvents = true
        inspected.tracesEvents = false

        // Copies of a component share its emitters' storage: these are the
        // bound ones.
        let plainProbe = InspectionProbe()
        let inspectedProbe = InspectionProbe()
        let plainTree = ComponentTree(plainProbe, context: plain)
        let inspectedTree = ComponentTree(inspectedProbe, context: inspected)
        let plainEmitter = plainProbe.value
        let inspectedEmitter = inspectedProbe.value
        for _ in 0..<observers {
            _ = plain.run { plainEmitter += EmitterBenchmarks.observer(sink) }
            _ = inspected.run { inspectedEmitter += EmitterBenchmarks.observer(sink) }
        }
        let perSend = Harness.measure([
            Variant("off") { sends in
                timed { for value in 0..<sends { plainEmitter.send(value) } }
            },
            Variant("on, nobody connected") { sends in
                timed { for value in 0..<sends { inspectedEmitter.send(value) } }
            },
        ])
        withExtendedLifetime((plainTree, inspectedTree)) {}
        return (enabled: perSend[1], disabled: perSend[0])
    }
}
