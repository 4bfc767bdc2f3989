extension AppContext {
    /// Whether this app records what happens in it on ``events``: every
    /// send of an emitter a component declares or adopts (a resource's),
    /// every `didAppear`, `didDisappear`, focus change and route change.
    ///
    /// Off by default, and then it costs one branch per send. `TestApp`
    /// turns it on; an inspector can turn it on in a running app. Tracing
    /// also stays on while something holds it (a trace recorder, see
    /// `holdTracing()`), whatever this property says.
    ///
    /// ```swift
    /// context.tracesEvents = true
    /// context.events += { event in log(event.description) }
    /// ```
    public var tracesEvents: Bool {
        get { eventTrace.isExplicitlyOn }
        set {
            eventTrace.isExplicitlyOn = newValue
            updateTracing()
        }
    }

    /// Whether this app counts the sends of its components' emitters (the
    /// counts ``TreeReport`` shows, from ``sendsCountedSince``): off by
    /// default, and then it costs nothing. While on (or while tracing is),
    /// each send of an emitter a component declares or adopts calls one
    /// extra observer that adds one to its count. The inspection server
    /// turns it on at its first `tree` or `follow` request.
    ///
    /// Turning it on resets no count; turning it off keeps the counts made
    /// so far (an emitter sends uncounted meanwhile).
    public var countsSends: Bool {
        get { eventTrace.countsSends }
        set {
            let wasInstalled = eventTrace.isInstalled
            eventTrace.countsSends = newValue
            updateTracing(wasInstalled: wasInstalled)
        }
    }

    /// When the sends ``TreeReport`` shows began to be counted (the app's
    /// clock): when ``countsSends`` or tracing was first turned on; `nil`
    /// before.
    public var sendsCountedSince: Duration? { eventTrace.countingSince }

    /// Sends every ``AppEvent`` while tracing is on.
    public var events: Emitter<AppEvent> { eventTrace.emitter }

    /// Keeps tracing on until as many ``releaseTracing()``s: for the
    /// runtime's own users of ``events`` (a trace recorder, an inspector
    /// following the app), so that one of them turning off does not turn
    /// tracing off under the others or the app's own ``tracesEvents``.
    package func holdTracing() {
        eventTrace.holds += 1
        updateTracing()
    }

    /// How many sends of the tree's emitters were counted (while
    /// ``countsSends`` or tracing is on), recorded as events or not: a
    /// follower that let go of tracing while it was behind learns from it
    /// how many events it missed.
    package var countedSends: Int { eventTrace.sends }

    /// Ends one ``holdTracing()``.
    package func releaseTracing() {
        eventTrace.holds = Swift.max(0, eventTrace.holds - 1)
        updateTracing()
    }

    /// Asks for the sends at `paths` (and below them: `app.stepper` takes
    /// `app.stepper.input`) to carry their value as JSON
    /// (``AppEvent/json``), made by `encode`, which returns `nil` for a
    /// value it cannot encode. Replaces the previous request; `nil` ends
    /// it. Only `Encodable` values are handed to `encode`.
    package func captureValues(atPaths paths: [String], encode: (@MainActor (any Encodable) -> String?)?) {
        eventTrace.capture = encode.map { ValueCapture(paths: paths, encode: $0) }
    }

    /// Records `event` (stamped with the app's clock) if tracing is on.
    func record(_ kind: AppEvent.Kind, path: String, value: String? = nil, json: String? = nil) {
        guard eventTrace.isOn else { return }
        eventTrace.emitter.send(AppEvent(time: scheduler?.now ?? .zero, kind: kind, path: path, value: value, json: json))
    }

    /// Turns recording on or off as ``tracesEvents`` and the holds say, and
    /// puts the tracer on every emitter of the tree, or takes it off, when
    /// recording or counting changed whether it is needed.
    private func updateTracing(wasInstalled: Bool? = nil) {
        let wasInstalled = wasInstalled ?? eventTrace.isInstalled
        eventTrace.isOn = eventTrace.isExplicitlyOn || eventTrace.holds > 0
        let isInstalled = eventTrace.isInstalled
        if isInstalled, eventTrace.countingSince == nil { eventTrace.countingSince = scheduler?.now ?? .zero }
        guard isInstalled != wasInstalled else { return }
        tree?.root.setTracing(isInstalled)
    }
}

/// The state behind ``AppContext/tracesEvents`` and
/// ``AppContext/countsSends``.
@MainActor
final class EventTrace {
    /// Whether sends are recorded: ``isExplicitlyOn`` or held.
    var isOn = false
    /// What ``AppContext/tracesEvents`` was set to.
    var isExplicitlyOn = false
    /// How many ``AppContext/holdTracing()``s are in effect.
    var holds = 0
    /// Which sends carry their value as JSON, and how it is made.
    var capture: ValueCapture?
    /// Whether sends are counted.
    var countsSends = false
    /// When sends were first counted (the app's clock), if ever.
    var countingSince: Duration?
    let emitter = Emitter<AppEvent>()

    /// How many sends the tracers saw, recorded or not: what a follower
    /// that stopped recording while it was behind missed.
    var sends = 0

    /// Whether emitters carry their tracer (which counts, and records while
    /// ``isOn``).
    var isInstalled: Bool { isOn || countsSends }
}

/// Which sends carry their value as JSON (see
/// ``AppContext/captureValues(atPaths:encode:)``).
@MainActor
struct ValueCapture {
    let paths: [String]
    let encode: @MainActor (any Encodable) -> String?

    /// Whether `path` is one of ``paths`` or below one.
    func covers(_ path: String) -> Bool {
        paths.contains { Self.path(path, isAtOrBelow: $0) }
    }

    /// `app.a` is at or below `app.a` and `app`, not below `app.ab`.
    nonisolated static func path(_ path: String, isAtOrBelow prefix: String) -> Bool {
        guard path.hasPrefix(prefix) else { return false }
        guard let next = path.dropFirst(prefix.count).first else { return true }
        return prefix.isEmpty || next == "." || next == "["
    }
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
