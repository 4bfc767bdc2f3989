import Compose
import ComposeTesting
import Testing

@MainActor
@Suite struct VirtualSchedulerTests {
    @Test func actionsRunInDueOrderWithNowAtTheirDueTime() {
        let scheduler = VirtualScheduler()
        var log: [(String, Duration)] = []
        _ = scheduler.schedule(after: .milliseconds(20)) { log.append(("b", scheduler.now)) }
        _ = scheduler.schedule(after: .milliseconds(10)) { log.append(("a", scheduler.now)) }
        _ = scheduler.schedule(after: .milliseconds(20)) { log.append(("c", scheduler.now)) }
        scheduler.advance(by: .milliseconds(15))
        #expect(log.map(\.0) == ["a"])
        scheduler.advance(by: .milliseconds(5))
        #expect(log.map(\.0) == ["a", "b", "c"])
        #expect(log.map(\.1) == [.milliseconds(10), .milliseconds(20), .milliseconds(20)])
        #expect(scheduler.now == .milliseconds(20))
    }

    @Test func cancelledActionsNeverRun() {
        let scheduler = VirtualScheduler()
        var ran = false
        let action = scheduler.schedule(after: .seconds(1)) { ran = true }
        scheduler.cancel(action)
        scheduler.advance(by: .seconds(2))
        #expect(!ran)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func actionsScheduledByActionsRunWithinTheSameAdvance() {
        let scheduler = VirtualScheduler()
        var times: [Duration] = []
        _ = scheduler.schedule(after: .seconds(1)) {
            times.append(scheduler.now)
            _ = scheduler.schedule(after: .seconds(1)) { times.append(scheduler.now) }
        }
        scheduler.advance(by: .seconds(5))
        #expect(times == [.seconds(1), .seconds(2)])
        #expect(scheduler.now == .seconds(5))
    }
}
