public import Compose

/// Where the `loop` report of `compose inspect PID loop` (its `health`
/// section) and the `SIGUSR1` report take the loop's health from, when not
/// from the runtime's own sampling (`AppContext.loopHealth`): a test
/// context, which has no loop, or an app that measures differently.
///
/// ```swift
/// final class FixedHealth: LoopHealthReporting {
///     func loopHealthReport() -> LoopHealth {
///         LoopHealth(lagP50: .milliseconds(1), lagP99: .milliseconds(4), lagMax: .milliseconds(9), window: .seconds(60))
///     }
/// }
/// app.context.loopHealthReporter = FixedHealth()
/// ```
@MainActor
public protocol LoopHealthReporting: AnyObject {
    /// The figures now. Called on the loop, so it must be quick (no I/O).
    func loopHealthReport() -> LoopHealth
}

extension AppContext {
    /// What the inspection reports take the loop's health from instead of
    /// ``loopHealth`` (see ``LoopHealthReporting``); `nil`, the default,
    /// uses ``loopHealth``, and the `health` section is empty when that is
    /// `nil` too (a test context, a loop not sampled).
    public var loopHealthReporter: (any LoopHealthReporting)? {
        get { inspection.healthReporter }
        set { inspection.healthReporter = newValue }
    }
}
