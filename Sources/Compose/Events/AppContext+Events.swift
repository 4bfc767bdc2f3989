extension AppContext {
    /// Whether this app records what happens in it on ``events``: every
    /// send of an emitter a component declares or adopts (a resource's),
    /// every `didAppear`, `didDisappear`, focus change and route change.
    ///
    /// Off by default, and then it costs one branch per send. `TestApp`
    /// turns it on; an inspector can turn it on in a running app.
    ///
    /// ```swift
    /// context.tracesEvents = true
    /// context.events += { event in log(event.description) }
    /// ```
    public var tracesEvents: Bool {
        get { eventTrace.isOn }
        set {
            guard newValue != eventTrace.isOn else { return }
            eventTrace.isOn = newValue
            tree?.root.setTracing(newValue)
        }
    }

    /// Sends every ``AppEvent`` while ``tracesEvents`` is on.
    public var events: Emitter<AppEvent> { eventTrace.emitter }

    /// Records `event` (stamped with the app's clock) if tracing is on.
    func record(_ kind: AppEvent.Kind, path: String, value: String? = nil) {
        guard eventTrace.isOn else { return }
        eventTrace.emitter.send(AppEvent(time: scheduler?.now ?? .zero, kind: kind, path: path, value: value))
    }
}

/// The state behind ``AppContext/tracesEvents``.
@MainActor
final class EventTrace {
    var isOn = false
    let emitter = Emitter<AppEvent>()
}

extension ComponentNode {
    /// Turns tracing of this subtree's emitters on or off.
    func setTracing(_ isOn: Bool) {
        ownedBoxes.forEach { box in
            if box.owner === self { box.setTracing(isOn) }
        }
        for child in children { child.setTracing(isOn) }
    }
}
