import ComposeApp
import ComposePersistence
import ComposeTesting
import Testing

// Sources/ComposeApp/ComposeApp.docc/GettingStarted.md: the hit counter a
// new user builds, a daemon with a store, a timer and a TCP listener, and
// its tests. Every ```swift block of the article is in this file.

struct Hits: Equatable, Codable {
    var total = 0            // every hit since the first start
    var thisMinute = 0       // hits since the minute timer last fired
    var busiestMinute = 0    // the most hits seen in one minute
}

struct HitCounterApp: Component {
    @Store(persistedAs: "hits") var hits = Hits()
    let listener: TCPServer
    let minute = LoopTimer(every: .seconds(60))

    init() {
        let port = Application.config.int(forKey: "port", default: 8080)   // --port, HIT_COUNTER_APP_PORT
        listener = TCPServer(port: UInt16(exactly: port) ?? 8080)
    }
}

extension HitCounterApp {
    var observers: Void {
        listener += { connection in
            hits.total += 1
            hits.thisMinute += 1
            connection.writeLine("hit \(hits.total)")
            connection.close()
        }
        minute += {
            hits.busiestMinute = max(hits.busiestMinute, hits.thisMinute)
            hits.thisMinute = 0
        }
    }
}

extension HitCounterApp: StartupComponent {
    static var configuration: StartupConfiguration {
        StartupConfiguration(config: ConfigOptions(descriptions: ["port": "The TCP port to listen on."]))
    }
}

/// Compiled, never called: the line of the article's `main.swift`. It
/// would run the real libuv loop until a signal.
@MainActor
func startTheHitCounterForReal() {
    HitCounterApp.main()
}

@MainActor
@Test func everyConnectionIsAHit() throws {
    let app = TestApp(HitCounterApp.self, config: ["port": 9000])

    let first = try app.connect(port: 9000)      // a simulated client
    #expect(first.readLines() == ["hit 1"])
    #expect(first.isClosedByApp)
    #expect(try app.connect(port: 9000).readLines() == ["hit 2"])
}

@MainActor
@Test func theMinuteTimerKeepsTheBusiestMinute() throws {
    let app = TestApp(HitCounterApp.self, config: ["port": 9000])
    let counter = try #require(app.root(as: HitCounterApp.self))
    _ = try app.connect(port: 9000)
    _ = try app.connect(port: 9000)

    app.advance(by: .seconds(60))                // virtual time: at once
    _ = try app.connect(port: 9000)
    #expect(counter.hits == Hits(total: 3, thisMinute: 1, busiestMinute: 2))
}

@MainActor
@Test func theCountSurvivesARestart() throws {
    let first = TestApp(HitCounterApp.self, config: ["port": 9000])
    _ = try first.connect(port: 9000)
    first.send(.terminate)                       // graceful: the store is saved
    #expect(first.exitStatus == 0)

    let second = TestApp(HitCounterApp.self, config: ["port": 9000], setUp: { app in
        app.stateStorage = first.stateStorage    // what the first run saved
    })
    #expect(try second.connect(port: 9000).readLines() == ["hit 2"])
}

@MainActor
@Test func theHitCounterRunsWithoutDiagnostics() throws {
    let app = TestApp(HitCounterApp.self, config: ["port": 9000])
    _ = try app.connect(port: 9000)
    app.advance(by: .seconds(120))
    #expect(app.diagnostics.isEmpty)
    #expect(app.exitStatus == nil)               // a daemon runs until told to stop
}
