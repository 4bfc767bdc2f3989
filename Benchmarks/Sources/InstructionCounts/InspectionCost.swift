import Compose
import ComposeApp
import CoreMetrics

// The cost of being inspectable, in instructions per emitter send: an app
// with none of it ("off"); an app whose loop-health sampler and metrics
// run and that an inspector followed and left, nobody connected now
// ("idle", the target: under 5% over "off"); and the same after a
// `tree` request, which turns send counting on and leaves it on until a
// `counting off` ("counting"); and, for scale, while an inspector follows
// ("following": every send is recorded as an event, named by its path,
// and handed to the follower, whose own encoding and writing are not
// counted here). The inspection server itself is not on the send path: it
// only answers connections.

/// A component whose emitter the case sends on.
struct InspectionProbe: Component {
    let value = Emitter<Int>()
}

extension InspectionProbe {
    var observers: Void { None }
}

enum InspectionCost {
    enum Mode: String {
        case off = "inspection-off"
        case idle = "inspection-idle"
        case counting = "inspection-counting"
        case following = "inspection-following"
    }

    /// `n` sends to `observers` observers of a component's emitter in an
    /// app set up as `mode` says.
    @MainActor
    static func run(_ mode: Mode, observers: Int, n: Int, sink: Sink) {
        guard let context = try? AppContext.live(name: "inspection") else { fatalError("no event loop") }
        if mode != .off {
            do { try context.startLoopHealth() } catch { fatalError("\(error)") }
            // A backend that takes every report (and does nothing with it).
            context.metricsFactory = NOOPMetricsHandler.instance
            // An inspector followed the app, then left.
            context.tracesEvents = true
            context.tracesEvents = false
        }
        // What a `tree` request does.
        if mode == .counting { context.countsSends = true }
        // What a `follow` request does, with a follower that takes each
        // event (and does nothing with it).
        if mode == .following {
            context.countsSends = true
            context.tracesEvents = true
            context.events += { _ in sink.sum &+= 1 }
        }
        // Copies of a component share their emitters' storage: this one
        // is bound.
        let probe = InspectionProbe()
        let tree = ComponentTree(probe, context: context)
        let emitter = probe.value
        for _ in 0..<observers { _ = context.run { emitter += observer(sink) } }
        for value in 0..<n { emitter.send(value) }
        withExtendedLifetime(tree) {}
    }
}
