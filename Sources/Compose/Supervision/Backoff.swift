/// How long to wait before the next restart of something that keeps
/// failing: exponential growth from ``initial`` up to ``maximum``, with
/// jitter so that many restarting things do not wake in step.
///
/// Erlang/OTP restarts at once; a failure that repeats at once (a port
/// still taken, a peer still down) then burns its restart intensity in
/// microseconds. A backoff spreads the attempts out:
///
/// ```swift
/// let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(30))
/// backoff.delay(afterFailures: 1, jitterUnit: 0.5)   // 100 ms
/// backoff.delay(afterFailures: 4, jitterUnit: 0.5)   // 800 ms
/// ```
///
/// The delay after the `n`-th consecutive failure is
/// `min(maximum, initial × multiplier^(n-1))`, then scaled by a factor drawn
/// from `1 - jitter ... 1 + jitter` (clamped to `maximum`). The random draw
/// is the caller's (``delay(afterFailures:jitterUnit:)`` takes it as a
/// number in `0..<1`), so the type is pure and a test can fix it.
public struct Backoff: Sendable, Equatable {
    /// The delay after the first failure.
    public var initial: Duration
    /// The longest delay, whatever the number of failures.
    public var maximum: Duration
    /// How much each further failure multiplies the delay by (at least 1).
    public var multiplier: Double
    /// The spread of the random factor: 0.2 draws it from 0.8 ... 1.2;
    /// 0 gives the exact exponential delays. Clamped to `0...1`.
    public var jitter: Double

    /// A backoff; the defaults double from 100 ms up to 30 s, ±20 %.
    ///
    /// - Parameters:
    ///   - initial: The delay after the first failure (0 restarts at once).
    ///   - maximum: The longest delay.
    ///   - multiplier: The growth per failure; values below 1 count as 1.
    ///   - jitter: The spread of the random factor, in `0...1`.
    public init(
        initial: Duration = .milliseconds(100),
        maximum: Duration = .seconds(30),
        multiplier: Double = 2,
        jitter: Double = 0.2
    ) {
        self.initial = initial
        self.maximum = maximum
        self.multiplier = multiplier
        self.jitter = jitter
    }

    /// No delay at all: OTP's behaviour.
    public static let immediate = Backoff(initial: .zero, maximum: .zero, multiplier: 1, jitter: 0)

    /// The delay before the restart that follows `failures` consecutive
    /// failures (1 for the first).
    ///
    /// - Parameters:
    ///   - failures: How many times in a row it has failed; values below 1
    ///     count as 1.
    ///   - jitterUnit: A random number in `0..<1` (0.5 gives the delay
    ///     without jitter); values outside are clamped.
    /// - Returns: A delay between zero and ``maximum``.
    public func delay(afterFailures failures: Int, jitterUnit: Double) -> Duration {
        let cap = Self.seconds(maximum)
        guard cap > 0 else { return .zero }
        let growth = Swift.max(1, multiplier)
        let exponent = Double(Swift.max(0, Swift.min(failures, 1_000) - 1))
        var seconds = Swift.min(cap, Self.seconds(initial) * pow(growth, exponent))
        let spread = Swift.min(1, Swift.max(0, jitter))
        let unit = Swift.min(1, Swift.max(0, jitterUnit))
        seconds *= 1 + spread * (2 * unit - 1)
        seconds = Swift.min(cap, Swift.max(0, seconds))
        guard seconds.isFinite else { return maximum }
        return .nanoseconds(Int64(seconds * 1e9))
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }

    /// `base` raised to `exponent` by repeated squaring (no Foundation).
    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var factor = base
        var remaining = Int(exponent)
        while remaining > 0 {
            if remaining & 1 == 1 { result *= factor }
            factor *= factor
            remaining >>= 1
            if result.isInfinite { return result }
        }
        return result
    }
}
