import Compose
import Testing

@Suite("Backoff")
struct BackoffTests {
    let backoff = Backoff(initial: .milliseconds(100), maximum: .seconds(2), multiplier: 2, jitter: 0.2)

    @Test("the delay doubles from the initial one and stops at the maximum")
    func growsExponentiallyUpToTheMaximum() {
        let delays = (1...8).map { backoff.delay(afterFailures: $0, jitterUnit: 0.5) }
        #expect(delays == [
            .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
            .milliseconds(1600), .seconds(2), .seconds(2), .seconds(2),
        ])
    }

    @Test("jitter spreads the delay by the configured fraction either way, never past the maximum")
    func jitterStaysWithinItsBounds() {
        #expect(backoff.delay(afterFailures: 2, jitterUnit: 0) == .milliseconds(160))
        #expect(backoff.delay(afterFailures: 2, jitterUnit: 1) == .milliseconds(240))
        #expect(backoff.delay(afterFailures: 20, jitterUnit: 1) == .seconds(2))
        #expect(backoff.delay(afterFailures: 20, jitterUnit: 0) == .milliseconds(1600))
    }

    @Test("out-of-range inputs are clamped instead of trapping")
    func clampsBadInput() {
        #expect(backoff.delay(afterFailures: 0, jitterUnit: 0.5) == .milliseconds(100))
        #expect(backoff.delay(afterFailures: -3, jitterUnit: 7) == .milliseconds(120))
        #expect(backoff.delay(afterFailures: Int.max, jitterUnit: -1) == .milliseconds(1600))
        let shrinking = Backoff(initial: .seconds(1), maximum: .seconds(5), multiplier: 0.1, jitter: 0)
        #expect(shrinking.delay(afterFailures: 3, jitterUnit: 0.5) == .seconds(1))
    }

    @Test("the immediate backoff never waits")
    func immediateNeverWaits() {
        #expect(Backoff.immediate.delay(afterFailures: 5, jitterUnit: 0.9) == .zero)
    }
}
