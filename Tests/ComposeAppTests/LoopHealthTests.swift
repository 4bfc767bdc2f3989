@_spi(Testing) import ComposeApp
import CoreMetrics
import Foundation
import MetricsTestKit
import Testing

/// Loop health and metrics on a live loop: the lag figures come from a
/// real timer on the real clock, so these tests run real time on purpose.
@MainActor
@Suite(.serialized, .liveLoop) struct LoopHealthTests {
    @Test func blockingTheLoopFor200MillisecondsShowsInTheLagFigures() throws {
        let context = try #require(AppContext.current)
        #expect(context.loopHealth == nil, "no figures before sampling starts")
        try context.startLoopHealth()
        // Two quiet samples first (the sampler fires every 100 ms).
        #expect(LoopDriver.run(until: { (context.loopHealth?.samples ?? 0) >= 2 }))
        let quiet = try #require(context.loopHealth)
        #expect(quiet.lagMax < .milliseconds(100), "\(quiet)")

        // A callback that blocks the loop for 200 ms of real time: real
        // time is the subject here (the lag of a loop that cannot run),
        // so the test blocks for real instead of advancing a clock.
        var blocked = false
        let blocker = LoopTimer(after: .milliseconds(1), startsWithComponent: false)
        blocker += {
            usleep(200_000)   // real time: the blocked loop is the subject
            blocked = true
        }
        blocker.start()
        let samplesBefore = quiet.samples
        #expect(LoopDriver.run(until: { blocked && (context.loopHealth?.samples ?? 0) >= samplesBefore + 2 }))

        let health = try #require(context.loopHealth)
        // Sampled every 100 ms, a 200 ms block delays the sample due
        // during it by at least 100 ms, whenever it began.
        #expect(health.lagMax >= .milliseconds(100), "\(health)")
        #expect(health.lagMax <= .seconds(1), "\(health)")
        // Fewer than 100 samples: the 99th percentile is the largest.
        #expect(health.lagP99 == health.lagMax, "\(health)")
        #expect(health.lagP50 < .milliseconds(100), "\(health)")
        #expect(health.eventsPerSecond > 0, "\(health)")
        #expect(health.utilization > 0.2, "200 ms of work in well under a second: \(health)")
        #expect(health.window > .zero && health.window < .seconds(5), "\(health)")
    }

    /// The sampler's timer is the kernel's (a timerfd the loop watches),
    /// not a libuv timer: with nothing else due, the loop still waits
    /// without a timeout, as one without the sampler would. (A timeout on
    /// every wait costs the kernel a timer per wait: per message, for a
    /// daemon serving one client.)
    @Test func theSamplerLeavesTheLoopsWaitWithoutATimeout() throws {
        let context = try #require(AppContext.current)
        // Something that keeps the loop alive and is never due: a listener.
        let server = TCPServer(port: 0, startsWithComponent: false)
        try server.listen()
        defer { server.close() }
        try context.startLoopHealth()
        #expect(LoopDriver.run(until: { (context.loopHealth?.samples ?? 0) >= 1 }))
        // The driver's own guard timer closes as it returns: let it go.
        LoopDriver.settle()
        // Sampling goes on (armed again for the next sample) and yet
        // nothing is due for the loop's wait.
        #expect(LoopHealthProbe.waitTimeout(in: context) == -1)
    }

    @Test func theMetricsCountConnectionsBytesAndEventsOffTheHotPath() async throws {
        let context = try #require(AppContext.current)
        let metrics = TestMetrics()
        context.metricsFactory = metrics
        let dimensions = [("app", context.name)]
        // The gauges start at zero, so a scrape lists them at once.
        #expect(try metrics.expectGauge("compose_connections_open", dimensions).lastValue == 0)

        let server = TCPServer(port: 0, startsWithComponent: false)
        try server.listen()
        var accepted: [TCPConnection] = []
        var received = ""
        server += { connection in
            accepted.append(connection)
            connection.lines += { received += $0 }
            connection.start()
        }
        var client: TCPConnection?
        TCPConnection.connect(host: "127.0.0.1", port: server.port) { result in
            client = try? result.get()
            client?.write("hello\n")
        }
        #expect(LoopDriver.run(until: { received == "hello" }))

        context.updateMetrics()
        #expect(try metrics.expectCounter("compose_connections_accepted_total", dimensions).totalValue == 1)
        // Both ends are connections of this loop.
        #expect(try metrics.expectGauge("compose_connections_open", dimensions).lastValue == 2)
        #expect(try metrics.expectCounter("compose_bytes_read_total", dimensions).totalValue == 6)
        #expect(try metrics.expectCounter("compose_bytes_written_total", dimensions).totalValue == 6)
        #expect(try metrics.expectCounter("compose_loop_events_total", dimensions).totalValue >= 3)

        client?.close()
        for connection in accepted { connection.close() }
        server.close()
        #expect(LoopDriver.run(until: {
            context.updateMetrics()
            return (try? metrics.expectGauge("compose_connections_open", dimensions).lastValue) == 0
        }))
        context.metricsFactory = nil
    }

    @Test func theSamplerReportsTheLagToTheMetricsOnItsOwn() throws {
        let context = try #require(AppContext.current)
        let metrics = TestMetrics()
        context.metricsFactory = metrics
        try context.startLoopHealth()
        let lag = { try? metrics.expectTimer("compose_loop_lag", [("app", context.name)]).values.count }
        #expect(LoopDriver.run(until: { (lag() ?? 0) >= 2 }))
        context.metricsFactory = nil
    }
}

/// The health figures' arithmetic, without a loop.
@Suite struct LoopHealthFigureTests {
    @Test func percentilesAreNearestRank() {
        let values: [UInt64] = Array(1...200)
        #expect(LoopHealthProbe.percentile(50, of: values) == 100)
        #expect(LoopHealthProbe.percentile(99, of: values) == 198)
        #expect(LoopHealthProbe.percentile(99, of: [7]) == 7)
        #expect(LoopHealthProbe.percentile(50, of: []) == 0)
    }

    @Test func theDescriptionFitsOneLine() {
        let health = LoopHealth(lagP50: .microseconds(120), lagP99: .milliseconds(3), lagMax: .milliseconds(201), eventsPerSecond: 850.4, utilization: 0.042, window: .seconds(60), samples: 600)
        #expect(health.description == "lag p50 0.1 ms, p99 3.0 ms, max 201.0 ms; 850 events/s; 4% busy (60 s)")
    }
}
